# ruff: noqa
"""A small MNIST 3-vs-7 net trained on batches sliced from the stacked tensors: no per-sample work.

source: fastai's fastbook, chapter 4 (simple_net = nn.Sequential(nn.Linear(28*28, 30), nn.ReLU(),
        nn.Linear(30, 1)) trained with SGD), its batches taken as slices of train_x and train_y of
        a shuffled order, the way plain-PyTorch rewrites of the chapter do it
family: dataloader
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: each batch is one indexing of stacked tensors; the time is the model's steps
size: 12,396 images of 784 values, batch 256, 40 epochs of a 784-30-1 net
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(139)
train_x = torch.rand(12_396, 28 * 28)
train_y = torch.cat([torch.ones(6_131), torch.zeros(6_265)]).unsqueeze(1)
simple_net = nn.Sequential(nn.Linear(28 * 28, 30), nn.ReLU(), nn.Linear(30, 1))
opt = torch.optim.SGD(simple_net.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()
# %% cell
for epoch in range(40):
    order = torch.randperm(len(train_x))
    for start in range(0, len(train_x), 256):
        idx = order[start:start + 256]
        loss = loss_fn(simple_net(train_x[idx]), train_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
