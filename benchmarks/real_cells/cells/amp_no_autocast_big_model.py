# ruff: noqa
"""A float32 training loop that moves each batch to the device, with a 3-million-weight model.

source: Lightning-AI/tutorials and course notebooks' plain PyTorch loops (device = "cuda" if
        available; no autocast), the setting AIP504 is about
family: amp
kind: slow
verdict: AIP907|AIP908
rewrite: yes on a GPU: torch.autocast("cuda", dtype=torch.bfloat16) around the forward pass
size: 12 batches of 64 x 1024, a 1024-1024-1024-1024-10 MLP (about 3.2 million weights)
scaled: no
kernel: torch
cpu: mixed precision is about a GPU's tensor cores: on a CPU machine the trap does not exist here
     (neutral); the run is CPU-bound matrix products
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(13)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                      nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
batches = [(torch.randn(64, 1024), torch.randint(0, 10, (64,))) for _ in range(12)]
# %% cell
model.train()
for x, y in batches:  # expect[cuda]: AIP504
    x, y = x.to(device), y.to(device)
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
