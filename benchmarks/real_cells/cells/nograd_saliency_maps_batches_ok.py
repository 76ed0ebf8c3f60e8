# ruff: noqa
"""Saliency maps of a classifier, batch after batch with the model in eval mode and no torch.no_grad(): the gradients are the output.

source: Stanford CS231n's NetworkVisualization notebook (compute_saliency_maps: model.eval();
        X.requires_grad_(); scores = model(X).gather(1, y.view(-1, 1)).squeeze(); scores.backward(
        torch.ones_like(scores)); saliency = X.grad.abs().max(dim=1)[0]), over several batches of
        validation images
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: a saliency map is the gradient of the score with respect to the image, so autograd must record the forward pass; no_grad would make it impossible
size: 8 batches of 32 images of 3 x 64 x 64, a small CNN
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(221)
model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(64 * 16 * 16, 100))
for p in model.parameters():
    p.requires_grad_(False)
images = torch.rand(256, 3, 64, 64)
targets = torch.randint(0, 100, (256,))
# %% cell
model.eval()
saliency_maps = []
for start in range(0, len(images), 32):
    X = images[start:start + 32].clone().requires_grad_()
    y = targets[start:start + 32]
    scores = model(X).gather(1, y.view(-1, 1)).squeeze()
    scores.backward(torch.ones_like(scores))
    saliency_maps.append(X.grad.abs().max(dim=1)[0])
saliency = torch.cat(saliency_maps)
