# ruff: noqa
"""A training loop over a DataLoader without workers whose Dataset reads each sample with frame.iloc.

source: PyTorch tutorials, "Writing Custom Datasets, DataLoaders and Transforms"
        (FaceLandmarksDataset keeps the CSV as a DataFrame and takes self.landmarks_frame.iloc[idx,
        1:] in __getitem__), the shape tabular-data notebooks copy for a CSV of features: the
        Dataset converts one row to a tensor per item, the loop trains a small MLP on the batches
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: tensors made once from the frame's columns (a TensorDataset), or num_workers=2
size: 12,000 rows of 20 features, batch 32, one epoch of a 20-64-2 MLP
scaled: no
kernel: torch
"""
# %% setup
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(12)
frame = pd.DataFrame(rng.normal(size=(12_000, 20)), columns=[f"f{k}" for k in range(20)])
frame.insert(0, "label", rng.integers(0, 2, 12_000))


class CsvRowsDataset(Dataset):
    def __init__(self, frame):
        self.frame = frame

    def __len__(self):
        return len(self.frame)

    def __getitem__(self, idx):
        features = self.frame.iloc[idx, 1:].to_numpy(dtype=np.float32)
        label = int(self.frame.iloc[idx, 0])
        return torch.from_numpy(features), label


torch.manual_seed(12)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
dataset = CsvRowsDataset(frame)
# %% cell
loader = DataLoader(dataset, batch_size=32, shuffle=True)  # expect: AIP101
for xb, yb in loader:  # expect: AIP101
    loss = loss_fn(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
