# ruff: noqa
"""A tabular classifier trained from NumPy arrays: each step's batch indexed out of the arrays, made a tensor with torch.tensor and only then moved with .to(device), for every step of every epoch.

source: tabular deep-learning notebooks and course scripts that keep the data in NumPy after
        scikit-learn preprocessing (for epoch in range(epochs): perm = np.random.permutation(n);
        for start in range(0, n, bs): idx = perm[start:start + bs]; xb = torch.tensor(X[idx],
        dtype=torch.float32).to(device); yb = torch.tensor(y[idx]).to(device); ...), device =
        "cuda" if available
family: device-copy
kind: slow
verdict: none|AIP907|AIP908
rewrite: yes on a GPU: X and y made tensors and moved to the device once before the epochs (X_t = torch.from_numpy(X).to(device)), the permutation drawn there and the batches indexed on the device; none needed on a CPU
size: 50,000 rows of 64 features, batch 256, 2 epochs (392 steps), a 64-256-256-10 MLP
scaled: no
kernel: torch
cpu: on a CPU machine .to(device) is a no-op: the copies exist only with CUDA, so this run can
     show nothing true about them (the trap is left out of recall here; a finding on it is neutral)
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(723)
rng = np.random.default_rng(723)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = rng.normal(size=(50_000, 64)).astype(np.float32)
w = rng.normal(size=(64, 10))
y = (X @ w + rng.normal(scale=2.0, size=(50_000, 10))).argmax(axis=1)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch_size, epochs = 256, 2
# %% cell
model.train()
for epoch in range(epochs):
    perm = np.random.permutation(len(X))
    for start in range(0, len(X), batch_size):
        idx = perm[start:start + batch_size]
        xb = torch.tensor(X[idx], dtype=torch.float32).to(device)  # expect[cuda]: AIP501|AIP102
        yb = torch.tensor(y[idx]).to(device)  # expect[cuda]: AIP501|AIP102
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
