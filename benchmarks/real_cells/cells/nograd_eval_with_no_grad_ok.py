# ruff: noqa
"""The same accuracy loop under torch.no_grad(): the inference is written as tutorials recommend.

source: PyTorch tutorials (pytorch/tutorials), quickstart test(): model.eval() and torch.no_grad()
family: no-grad
kind: healthy
verdict: AIP907|AIP908
rewrite: no: already without autograd
size: 20,000 test samples in batches of 100, a 784-1024-1024-10 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(11)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
test_batches = [(torch.randn(100, 784), torch.randint(0, 10, (100,))) for _ in range(200)]
# %% cell
model.eval()
correct = 0
with torch.no_grad():
    for images, labels in test_batches:
        outputs = model(images)
        correct += (outputs.argmax(1) == labels).sum().item()
accuracy = correct / (100 * len(test_batches))
