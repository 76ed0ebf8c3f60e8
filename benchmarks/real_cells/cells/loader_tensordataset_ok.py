# ruff: noqa
"""A TensorDataset of preprocessed tabular tensors, batch 256, feeding an MLP: the model sets the pace.

source: Dive-into-DL-PyTorch (ShusenTang) and d2l's load_array (TensorDataset over tensors already
        in memory, DataLoader without workers, as the book writes it)
family: dataloader
kind: healthy
verdict: AIP907|AIP908
rewrite: no: a sample is one indexing; workers would only add inter-process copies
size: 20,000 rows x 64 features, batch 256, one epoch of a 64-512-512-1 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(4)
features = torch.randn(20_000, 64)
labels = features @ torch.randn(64, 1) + 0.1 * torch.randn(20_000, 1)
dataset = TensorDataset(features, labels)
net = nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 1))
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.01)
# %% cell
data_iter = DataLoader(dataset, batch_size=256, shuffle=True)
for X, y in data_iter:
    l = loss(net(X), y)
    trainer.zero_grad()
    l.backward()
    trainer.step()
