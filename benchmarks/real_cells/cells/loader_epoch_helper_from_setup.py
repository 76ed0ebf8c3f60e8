# ruff: noqa
"""An epoch loop calling a train_one_epoch helper from an earlier cell over a loader without workers.

source: Lightning-AI/tutorials and course notebooks that define train_one_epoch(model, loader,
        optimizer) once and call it per epoch; the Dataset standardises each sample in __getitem__
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers on the loader, or standardise the whole array once in __init__
size: 3,000 samples of 32 x 32, batch 32, 2 epochs
scaled: no
kernel: torch
"""
# %% setup
import numpy as np
import torch
from cell_data import images
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(2)


class Patches(Dataset):
    def __init__(self, arrays, targets):
        self.arrays, self.targets = arrays, targets

    def __len__(self):
        return len(self.arrays)

    def __getitem__(self, index):
        patch = self.arrays[index].astype(np.float64)
        patch = (patch - patch.mean()) / (patch.std() + 1e-8)
        patch = np.stack([patch, np.fliplr(patch), np.flipud(patch)])
        return torch.as_tensor(patch, dtype=torch.float32), torch.as_tensor(self.targets[index])


train_loader = DataLoader(Patches(*images(3_000, size=32, seed=73)), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)


def train_one_epoch(model, loader, optimizer):
    model.train()
    total = 0.0
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)
# %% cell
for epoch in range(2):
    loss = train_one_epoch(model, train_loader, optimizer)  # expect: AIP101
    print(f"epoch {epoch}: {loss:.3f}")
