# ruff: noqa
"""A Dataset that reads its sample's line of a CSV with linecache.getline and parses the fields in __getitem__, behind a DataLoader without workers.

source: PyTorch forum answers and blog posts on lazily loading a CSV too large for memory (class
        CSVDataset(Dataset): __getitem__ reads line idx + 2 with linecache.getline, splits it on
        commas, turns the fields into a float tensor and the label into an int), feeding the
        usual training loop
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: DataLoader(..., num_workers=2, persistent_workers=True) (the same batches in the same order; the gain needs free cores); or parse the file once with np.loadtxt/pd.read_csv into tensors when it fits in memory
size: 12,000 rows of 120 features, batch 64, one epoch of a 120-64-2 MLP
scaled: no
kernel: torch
unsure: linecache keeps the file's lines in memory after the first read, so most of a sample's
        cost is the split and 120 float conversions; with 2 cores the workers' gain is moderate
"""
# %% setup
import linecache

import numpy as np
import torch
from cell_data import temp_dir
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(320)
rng = np.random.default_rng(320)
n_rows, n_features = 12_000, 120
X = rng.normal(size=(n_rows, n_features)).round(5)
y = (X[:, :5].sum(1) > 0).astype(int)
csv_path = str(temp_dir() / "sensor_windows.csv")
with open(csv_path, "w", encoding="utf-8") as f:
    f.write(",".join([f"f{j}" for j in range(n_features)] + ["label"]) + "\n")
    for row, label in zip(X, y):
        f.write(",".join(map(str, row)) + f",{label}\n")


class CSVDataset(Dataset):
    def __init__(self, path, n_rows):
        self.path, self.n_rows = path, n_rows

    def __len__(self):
        return self.n_rows

    def __getitem__(self, idx):
        line = linecache.getline(self.path, idx + 2)
        *features, label = line.rstrip("\n").split(",")
        return torch.tensor([float(v) for v in features]), int(label)


train_set = CSVDataset(csv_path, n_rows)
model = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)  # expect: AIP101
for features, labels in train_loader:  # expect: AIP101
    optimizer.zero_grad()
    loss = criterion(model(features), labels)
    loss.backward()
    optimizer.step()
