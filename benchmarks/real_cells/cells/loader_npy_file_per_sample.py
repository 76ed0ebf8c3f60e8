# ruff: noqa
"""Training from one .npy file per sample: the Dataset opens and loads a file in __getitem__, no workers.

source: Kaggle notebooks that preprocess a competition's images or signals to one .npy file each
        (class NpyDataset(Dataset): def __getitem__(self, i): x = np.load(self.paths[i]); return
        torch.from_numpy(x), self.labels[i]), trained with DataLoader(ds, batch_size=64, shuffle=True)
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: DataLoader(..., num_workers=2) (the files are read and decoded in the workers; the same batches)
size: 2,000 files of 3 x 32 x 32 float32, batch 64, 2 epochs of a small CNN
scaled: yes: the competitions' sets have tens of thousands of files; two epochs of a subset
kernel: torch
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from cell_data import temp_dir

rng = np.random.default_rng(215)
folder = temp_dir()
paths = []
for i in range(2_000):
    path = folder / f"sample_{i:05d}.npy"
    np.save(path, rng.standard_normal((3, 32, 32)).astype(np.float32))
    paths.append(str(path))
labels = rng.integers(0, 10, 2_000).tolist()


class NpyDataset(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        x = np.load(self.paths[i])
        return torch.from_numpy(x), self.labels[i]


torch.manual_seed(215)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(4), nn.Flatten(), nn.Linear(8 * 8 * 8, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
# %% cell
train_loader = DataLoader(NpyDataset(paths, labels), batch_size=64, shuffle=True)  # expect: AIP101
for epoch in range(2):
    for xb, yb in train_loader:  # expect: AIP101
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
