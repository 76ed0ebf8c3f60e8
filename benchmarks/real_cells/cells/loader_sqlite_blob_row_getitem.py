# ruff: noqa
"""Training from a Dataset backed by an SQLite file: __getitem__ runs one SELECT per sample and decodes its feature blob with np.frombuffer, behind a DataLoader without workers.

source: PyTorch projects that keep preprocessed samples in a single SQLite (or LMDB) file instead of
        thousands of small files (class SQLiteDataset(Dataset): __getitem__ does
        self.con.execute("SELECT features, label FROM samples WHERE id = ?", (idx,)).fetchone()
        and np.frombuffer(blob, dtype=np.float32)), the loader made in an earlier cell, one epoch of
        a small classifier here
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with a connection opened in each worker (worker_init_fn, or lazily in __getitem__), or a __getitems__ that fetches a whole batch with one SELECT ... WHERE id IN (...); or the table read once into one float32 array and a TensorDataset
size: 30,000 samples of 256 float32 features, batch 128, one epoch of a 256-128-10 MLP
scaled: no
kernel: torch
unsure: the per-sample cost is a database query, so the loop is also a query per item (the N+1 shape);
        AIP402 is accepted beside AIP101
"""
# %% setup
import sqlite3

import numpy as np
import torch
from cell_data import temp_dir
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(616)
rng = np.random.default_rng(616)
n_samples, n_features = 30_000, 256
db_path = temp_dir() / "samples.sqlite"
with sqlite3.connect(db_path) as con:
    con.execute("CREATE TABLE samples (id INTEGER PRIMARY KEY, features BLOB, label INTEGER)")
    labels = rng.integers(0, 10, n_samples)
    centres = rng.normal(0, 1, (10, n_features)).astype(np.float32)
    con.executemany("INSERT INTO samples VALUES (?, ?, ?)",
                    ((i, (centres[labels[i]] + rng.normal(0, 2, n_features).astype(np.float32)).tobytes(), int(labels[i]))
                     for i in range(n_samples)))


class SQLiteSamples(Dataset):
    def __init__(self, path):
        self.con = sqlite3.connect(path, check_same_thread=False)
        self.n = self.con.execute("SELECT COUNT(*) FROM samples").fetchone()[0]

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        blob, label = self.con.execute("SELECT features, label FROM samples WHERE id = ?", (idx,)).fetchone()
        x = np.frombuffer(blob, dtype=np.float32).copy()
        return torch.from_numpy(x), label


train_loader = DataLoader(SQLiteSamples(db_path), batch_size=128, shuffle=True)
model = nn.Sequential(nn.Linear(n_features, 128), nn.ReLU(), nn.Linear(128, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
# %% cell
model.train()
correct = 0
for x, y in train_loader:  # expect: AIP101|AIP402
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    correct += (logits.argmax(1) == y).sum().item()
train_accuracy = correct / len(train_loader.dataset)
