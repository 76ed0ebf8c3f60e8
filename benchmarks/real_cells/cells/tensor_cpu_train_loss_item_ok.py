# ruff: noqa
"""A CPU training loop that calls loss.item() at every step to log the loss: on the CPU nothing waits for a device.

source: PyTorch beginner notebooks' training loops run on a laptop (running_loss += loss.item();
        losses.append(loss.item()) every step, a print every 100 steps), the habit that costs a
        GPU synchronisation per step (AIP505) but nothing on the CPU
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: .item() of a CPU tensor reads one number; the steps are the time
size: 20,000 samples of 64 features, batch 64, 2 epochs of a 64-256-256-1 regression MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(330)
X = torch.randn(20_000, 64)
y = (X[:, :8].sum(1, keepdim=True) + 0.1 * torch.randn(20_000, 1))
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
# %% cell
losses = []
for epoch in range(2):
    running_loss = 0.0
    perm = torch.randperm(len(X))
    for step, start in enumerate(range(0, len(X), 64)):
        idx = perm[start:start + 64]
        loss = loss_fn(model(X[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        losses.append(loss.item())
        if step % 100 == 99:
            print(f"epoch {epoch} step {step + 1}: loss {running_loss / 100:.4f}")
            running_loss = 0.0
