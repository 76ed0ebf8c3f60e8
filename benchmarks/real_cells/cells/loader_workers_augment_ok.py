# ruff: noqa
"""Training over a Dataset that crops, flips and normalises each image in __getitem__, loaded by 2 worker processes.

source: PyTorch tutorials and Kaggle image notebooks that follow the DataLoader documentation's
        advice (DataLoader(train_set, batch_size=64, shuffle=True, num_workers=2,
        persistent_workers=True), the augmentation written with NumPy in the Dataset), the fix the
        no-workers loaders of these notebooks are told to make
family: dataloader
kind: healthy
verdict: AIP907|AIP908|AIP903|none
rewrite: no: the per-image work already runs in two worker processes, beside the training step (a machine of 2 cores has no more to give)
size: 2,000 images of 3 x 40 x 40 cropped to 32 x 32, batch 64, 1 epoch of a small CNN
scaled: no
kernel: torch
unsure: the main process waits while its workers prepare batches: whether a verdict counts the workers' cores decides which one is right (none that blames the loader is)
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(224)
raw_images = rng.integers(0, 256, (2_000, 40, 40, 3), dtype=np.uint8)
raw_labels = rng.integers(0, 10, 2_000)
MEAN = np.array([0.49, 0.48, 0.45], dtype=np.float32)
STD = np.array([0.25, 0.24, 0.26], dtype=np.float32)


class AugmentedImages(Dataset):
    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        r = np.random.default_rng(i)
        top, left = r.integers(0, 9, 2)
        img = self.images[i, top:top + 32, left:left + 32].astype(np.float32) / 255
        if r.random() < 0.5:
            img = img[:, ::-1]
        img = (img - MEAN) / STD
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))), int(self.labels[i])


torch.manual_seed(224)
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1),
                      nn.ReLU(), nn.MaxPool2d(4), nn.Flatten(), nn.Linear(32 * 4 * 4, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
# %% cell
train_loader = DataLoader(AugmentedImages(raw_images, raw_labels), batch_size=64, shuffle=True,
                          num_workers=2, persistent_workers=True)
for epoch in range(1):
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
