# ruff: noqa
"""Anomaly scores of an autoencoder: the model in eval mode reconstructs batches of heartbeat windows and each batch's errors are kept, with autograd recording every pass.

source: anomaly-detection notebooks (ECG5000 heartbeats, credit-card fraud) that score a trained
        autoencoder (model.eval(); for x in loader: recon = model(x); errors.append(((recon - x) **
        2).mean(1))), then set a threshold at a high quantile of the errors; the error tensors
        keep every batch's graph alive until the end
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: with torch.inference_mode(): around the loop (the same errors, no graphs recorded or kept)
size: 60,000 windows of 140 samples in batches of 500, a 140-256-64-16-64-256-140 autoencoder
scaled: yes: ECG5000 holds 5,000 heartbeats; the windows of a day of one patient's monitor
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(526)
t = torch.linspace(0, 1, 140)
beats = torch.sin(2 * torch.pi * (3 * t + torch.rand(60_000, 1))) * torch.exp(-((t - 0.3) ** 2) / 0.01)
windows = beats + 0.05 * torch.randn(60_000, 140)
windows[torch.rand(60_000) < 0.01] += 0.8 * torch.randn(140)
batches = list(windows.split(500))
autoencoder = nn.Sequential(
    nn.Linear(140, 256), nn.ReLU(), nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 16),
    nn.ReLU(), nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 140),
)
# %% cell
autoencoder.eval()
errors = []
for xb in batches:  # expect: AIP502
    recon = autoencoder(xb)  # expect: AIP502
    errors.append(((recon - xb) ** 2).mean(dim=1))
errors = torch.cat(errors)
threshold = errors.quantile(0.99)
n_anomalies = int((errors > threshold).sum())
