# ruff: noqa
"""model.eval() then an accuracy loop over test batches, without no_grad or inference_mode.

source: course notebooks' test loops (udlbook/udlbook and Atcold/NYU-DLSP20 evaluate after
        model.eval(); the forgotten no_grad is the seed article's chapter 4.2 trap)
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: with torch.inference_mode(): around the loop
size: 20,000 test samples in batches of 100, a 784-1024-1024-10 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(8)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
test_batches = [(torch.randn(100, 784), torch.randint(0, 10, (100,))) for _ in range(200)]
# %% cell
model.eval()
correct = 0
for images, labels in test_batches:  # expect: AIP502
    outputs = model(images)  # expect: AIP502
    correct += (outputs.argmax(1) == labels).sum().item()
accuracy = correct / (100 * len(test_batches))
