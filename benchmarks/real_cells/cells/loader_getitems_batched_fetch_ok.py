# ruff: noqa
"""A click-through model trained from a DataLoader over a Dataset with __getitems__: each batch is one indexing of in-memory tensors, no workers needed.

source: PyTorch code that fetches whole batches from a map-style Dataset (torch.utils.data calls
        a dataset's __getitems__(indices) with the batch's indices when it has one, as Hugging
        Face datasets do), with an identity collate_fn, feeding a small tabular MLP
family: dataloader
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: a batch costs one fancy index of two tensors; workers would only add the cost of sending it between processes
size: 60,000 rows of 64 features, batch 512, one epoch of a 64-256-256-1 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(426)


class ClickLogs(Dataset):
    def __init__(self, features, labels):
        self.features, self.labels = features, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.features[i], self.labels[i]

    def __getitems__(self, indices):
        idx = torch.as_tensor(indices)
        return self.features[idx], self.labels[idx]


features = torch.randn(60_000, 64)
labels = (features[:, :4].sum(1) + 0.5 * torch.randn(60_000) > 0).float()
train_set = ClickLogs(features, labels)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
loader = DataLoader(train_set, batch_size=512, shuffle=True, collate_fn=lambda batch: batch)
model.train()
for xb, yb in loader:
    loss = criterion(model(xb).squeeze(1), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
