# ruff: noqa
"""A training loop over a DataLoader without workers whose Dataset augments each image in __getitem__.

source: PyTorch tutorials (pytorch/tutorials): beginner_source/basics/data_tutorial.py (a custom
        Dataset that transforms in __getitem__) feeding the training loop of "Training a
        Classifier"; augmentations (random crop with padding, flip, normalise) written with NumPy
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with persistent_workers (the gain needs free cores)
size: 8,000 images of 28 x 28, batch 64, one epoch of a 784-128-10 MLP
scaled: yes: MNIST has 60,000 training images
kernel: torch
"""
# %% setup
import numpy as np
import torch
from cell_data import images
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
train_images, train_labels = images(8_000)


class AugmentedDigits(Dataset):
    def __init__(self, images, labels):
        self.images, self.labels = images, labels
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = self.images[idx].astype(np.float32) / 255.0
        padded = np.pad(img, 2, mode="reflect")
        top, left = self.rng.integers(0, 5, 2)
        img = padded[top:top + 28, left:left + 28]
        if self.rng.random() < 0.5:
            img = img[:, ::-1]
        img = (img - 0.1307) / 0.3081
        return torch.from_numpy(np.ascontiguousarray(img)).unsqueeze(0), int(self.labels[idx])


train_set = AugmentedDigits(train_images, train_labels)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
# %% cell
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)  # expect: AIP101
for epoch in range(1):
    for inputs, labels in train_loader:  # expect: AIP101
        optimizer.zero_grad()
        loss = criterion(model(inputs), labels)
        loss.backward()
        optimizer.step()
