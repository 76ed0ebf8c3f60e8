# ruff: noqa
"""Training one sample at a time with gradient accumulation: a forward and a backward pass per row, an optimizer step every 32 rows.

source: tabular-regression and fine-tuning notebooks that loop over the training rows one by one
        (for i in range(len(X)): loss = criterion(model(X[i].unsqueeze(0)), y[i].unsqueeze(0)) /
        accum_steps; loss.backward(); if (i + 1) % accum_steps == 0: optimizer.step();
        optimizer.zero_grad()), batch size one "to save memory"
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: mini-batches of 32 rows, one forward and backward per batch (loss = criterion(model(X[i:i + 32]), y[i:i + 32])): the same averaged gradients and steps up to rounding
size: 4,000 rows of 40 features, a 40-128-64-1 MLP, one epoch
scaled: no
kernel: torch
unsure: no rule of the catalog names a batch of one in training; any code on these lines is accepted
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(420)
X_train = torch.randn(4_000, 40)
y_train = (X_train[:, :5].sum(1, keepdim=True) + 0.1 * torch.randn(4_000, 1))
model = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
accum_steps = 32
# %% cell
model.train()
optimizer.zero_grad()
epoch_loss = 0.0
for i in range(len(X_train)):  # expect: *
    loss = criterion(model(X_train[i].unsqueeze(0)), y_train[i].unsqueeze(0)) / accum_steps  # expect: *
    loss.backward()  # expect: *
    epoch_loss += loss.item()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
