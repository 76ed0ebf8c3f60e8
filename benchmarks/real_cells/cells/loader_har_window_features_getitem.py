# ruff: noqa
"""Activity recognition from accelerometer windows: the Dataset slices, normalises and computes spectral features for each window in __getitem__, behind a DataLoader without workers.

source: human-activity-recognition notebooks in PyTorch (UCI HAR and WISDM data): a Dataset over
        one long three-axis recording whose __getitem__ cuts a 128-sample window at its start
        index, standardises it and adds hand-made features (per-axis statistics, percentiles, the
        magnitude of an rFFT), the loader made in an earlier cell, the training loop in this one
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with persistent_workers on the loader of the earlier cell (the gain needs free cores), or the windows' features computed once for all windows with NumPy before training
size: 4,156 windows of 128 x 3 samples, batch 64, one epoch of a 515-128-6 MLP
scaled: yes: WISDM holds about 1,000,000 readings; a twentieth of them, cut at a stride of 12
kernel: torch
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(417)
rng = np.random.default_rng(417)
n_samples = 50_000
activity = np.repeat(rng.integers(0, 6, n_samples // 500 + 1), 500)[:n_samples]
t = np.arange(n_samples) / 20.0
signal = np.stack([np.sin(2 * np.pi * (0.5 + activity) * t + k) for k in range(3)], axis=1)
signal = (signal + rng.normal(0, 0.3, (n_samples, 3))).astype(np.float32)


class HARWindows(Dataset):
    def __init__(self, signal, labels, window=128, stride=12):
        self.signal, self.labels, self.window = signal, labels, window
        self.starts = np.arange(0, len(signal) - window, stride)

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, idx):
        s = self.starts[idx]
        w = self.signal[s:s + self.window]
        w = (w - w.mean(axis=0)) / (w.std(axis=0) + 1e-6)
        magnitude = np.sqrt((w ** 2).sum(axis=1))
        spectrum = np.abs(np.fft.rfft(w, axis=0))[1:33]
        stats = np.concatenate([w.min(axis=0), w.max(axis=0), np.percentile(w, [10, 25, 50, 75, 90], axis=0).ravel(),
                                [magnitude.mean(), magnitude.std()]])
        features = np.concatenate([w.ravel(), spectrum.ravel(), stats]).astype(np.float32)
        return torch.from_numpy(features), int(self.labels[s + self.window // 2])


train_set = HARWindows(signal, activity)
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
n_features = len(train_set[0][0])
model = nn.Sequential(nn.Linear(n_features, 128), nn.ReLU(), nn.Linear(128, 6))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
model.train()
running, seen = 0.0, 0
for step, (features, labels) in enumerate(train_loader):  # expect: AIP101
    optimizer.zero_grad()
    loss = criterion(model(features), labels)
    loss.backward()
    optimizer.step()
    running += loss.item() * len(labels)
    seen += len(labels)
epoch_loss = running / seen
