# ruff: noqa
"""Train and test loaders made in the same cell; only the train loader is iterated.

source: the issue's case, in the shape of course notebooks (udlbook/udlbook's MNIST convolution
        notebooks and Atcold/NYU-DLSP20 make both loaders, then train): the test loader is never
        read here, so a finding on its line is in the wrong place
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers on the train loader (the gain needs free cores)
size: 4,000 train images (per-image normalise and jitter), 2,000 test images, batch 64
scaled: yes: MNIST has 60,000 training images
kernel: torch
"""
# %% setup
import numpy as np
import torch
from cell_data import images
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(1)


class DigitFiles(Dataset):
    def __init__(self, images, labels, train=True):
        self.images, self.labels, self.train = images, labels, train

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        x = self.images[i].astype(np.float32) / 255.0
        if self.train:
            x = np.clip(x + np.random.normal(0.0, 0.05, x.shape).astype(np.float32), 0.0, 1.0)
            x = np.roll(x, np.random.randint(-2, 3), axis=1)
        x = (x - x.mean()) / (x.std() + 1e-6)
        return torch.tensor(x).unsqueeze(0), int(self.labels[i])


train_data = DigitFiles(*images(4_000, seed=71))
test_data = DigitFiles(*images(2_000, seed=72), train=False)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                      nn.Linear(8 * 14 * 14, 10))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
train_loader = DataLoader(train_data, batch_size=64, shuffle=True)  # expect: AIP101
test_loader = DataLoader(test_data, batch_size=256)
model.train()
for x, y in train_loader:  # expect: AIP101
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
