# ruff: noqa
"""A denoising model trained on random patches: the Dataset's __getitem__ crops a patch, flips and rotates it, blurs it with an FFT Gaussian filter of a random width and adds noise, behind a DataLoader without workers, so every transform runs in the training process between steps.

source: image-restoration tutorials (DnCNN and denoising-autoencoder notebooks on BSD or DIV2K
        patches: class PatchDataset(Dataset): __getitem__ picks an image and a random 32 x 32 crop,
        augments it with np.rot90 and flips, makes the degraded input with a blur of random sigma and Poisson-Gaussian
        noise, returns (noisy, clean) tensors; DataLoader(ds, batch_size=64, shuffle=True))
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 with persistent_workers=True on the DataLoader (the same batches in distribution; the gain needs free cores), or the crops cut for the whole epoch first and the blur and noise applied to the batch as one FFT
size: 2,000 patches of 32 x 32 per epoch from 200 images of 256 x 256, batch 64, a 2-layer convolutional denoiser with 4 channels
scaled: yes: BSD400 has 400 images; patches of half of it
kernel: torch
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(724)
rng = np.random.default_rng(724)
yy, xx = np.mgrid[0:256, 0:256]
images = np.stack([(np.sin(xx / rng.uniform(4, 20)) * np.cos(yy / rng.uniform(4, 20)) * 0.4 + 0.5
                    + rng.normal(0, 0.02, (256, 256))).astype(np.float32) for _ in range(200)])


class PatchDataset(Dataset):
    def __init__(self, images, patch=32, per_image=10, noise=0.1):
        self.images, self.patch, self.per_image, self.noise = images, patch, per_image, noise
        self.f2 = np.fft.fftfreq(patch)[:, None] ** 2 + np.fft.rfftfreq(patch)[None, :] ** 2

    def __len__(self):
        return len(self.images) * self.per_image

    def __getitem__(self, idx):
        img = self.images[idx // self.per_image]
        y0, x0 = np.random.randint(0, img.shape[0] - self.patch, 2)
        clean = img[y0:y0 + self.patch, x0:x0 + self.patch]
        clean = np.rot90(clean, np.random.randint(4))
        if np.random.rand() < 0.5:
            clean = clean[:, ::-1]
        clean = np.ascontiguousarray(clean)
        sigma = np.random.uniform(0.5, 2.5)
        kernel = np.exp(-2 * (np.pi * sigma) ** 2 * self.f2)
        blurred = np.fft.irfft2(np.fft.rfft2(clean) * kernel, s=clean.shape)
        noisy = np.random.poisson(np.clip(blurred, 0, None) * 60) / 60 + np.random.normal(0, self.noise, clean.shape)
        return torch.from_numpy(noisy.astype(np.float32))[None], torch.from_numpy(clean)[None]


model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 3, padding=1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
loader = DataLoader(PatchDataset(images), batch_size=64, shuffle=True)  # expect: AIP101
model.train()
for noisy, clean in loader:  # expect: AIP101
    loss = nn.functional.mse_loss(model(noisy), clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
