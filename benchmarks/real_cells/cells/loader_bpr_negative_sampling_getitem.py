# ruff: noqa
"""A BPR recommender trained from a Dataset whose __getitem__ draws a negative item for each (user, item) pair with a rejection loop over the user's set of seen items, behind a DataLoader without workers.

source: implicit-feedback recommender tutorials in PyTorch (Bayesian personalised ranking and
        NCF on MovieLens: class BPRData(Dataset) whose __getitem__ returns (u, i, j) after
        j = random.randrange(n_items) until j not in user_pos[u]), the loader made in an earlier
        cell, one epoch of a matrix-factorisation model here
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with persistent_workers on the loader of the earlier cell (the gain needs free cores), or the negatives drawn for the whole epoch at once with NumPy and re-drawn only where they hit a seen item, then a TensorDataset of (u, i, j)
size: 150,000 interactions of 6,000 users and 3,700 items, batch 1,024, one epoch, 32-dimensional factors with sparse gradients (SparseAdam)
scaled: yes: MovieLens 1M has 1,000,209 ratings; a seventh of them
kernel: torch
"""
# %% setup
import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(615)
random.seed(615)
rng = np.random.default_rng(615)
n_users, n_items, n_pairs = 6_000, 3_700, 150_000
popularity = 1.0 / np.arange(1, n_items + 1) ** 0.7
pairs = np.unique(np.column_stack([rng.integers(0, n_users, n_pairs),
                                   rng.choice(n_items, n_pairs, p=popularity / popularity.sum())]), axis=0)
user_pos = {}
for u, i in pairs:
    user_pos.setdefault(int(u), set()).add(int(i))


class BPRTriples(Dataset):
    def __init__(self, pairs, user_pos, n_items):
        self.pairs, self.user_pos, self.n_items = pairs, user_pos, n_items

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        u, i = self.pairs[idx]
        j = random.randrange(self.n_items)
        while j in self.user_pos[int(u)]:
            j = random.randrange(self.n_items)
        return int(u), int(i), j


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.users = nn.Embedding(n_users, dim, sparse=True)
        self.items = nn.Embedding(n_items, dim, sparse=True)

    def forward(self, u, i, j):
        pu = self.users(u)
        return (pu * self.items(i)).sum(1), (pu * self.items(j)).sum(1)


train_loader = DataLoader(BPRTriples(pairs, user_pos, n_items), batch_size=1_024, shuffle=True)
model = MF(n_users, n_items)
optimizer = torch.optim.SparseAdam(model.parameters(), lr=5e-3)
# %% cell
model.train()
total = 0.0
for u, i, j in train_loader:  # expect: AIP101
    pos, neg = model(u, i, j)
    loss = -torch.nn.functional.logsigmoid(pos - neg).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.item()
