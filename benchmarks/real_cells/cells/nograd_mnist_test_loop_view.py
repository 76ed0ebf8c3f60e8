# ruff: noqa
"""Test accuracy of an MLP over a test loader with autograd on: model.eval() but no torch.no_grad().

source: MNIST classifier tutorials and course notebooks ("Set the model in eval mode",
        for i, data in enumerate(test_loader, 0): inputs = inputs.view(-1, 28 * 28); outputs =
        model(inputs); correct += (outputs == labels).sum().item()), without no_grad
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: with torch.no_grad(): (or inference_mode) around the loop
size: 10,000 test images of 28 x 28 in batches of 100, a 784-1024-512-10 MLP
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(10)
test_x = torch.rand(10_000, 1, 28, 28)
test_y = torch.randint(0, 10, (10_000,))
test_loader = DataLoader(TensorDataset(test_x, test_y), batch_size=100)
model = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 10))
# %% cell
model.eval()
correct, total = 0, 0
for i, data in enumerate(test_loader, 0):  # expect: AIP502
    inputs, labels = data
    inputs = inputs.view(-1, 28 * 28)
    outputs = model(inputs)  # expect: AIP502
    _, outputs = torch.max(outputs.data, 1)
    total += labels.size(0)
    correct += (outputs == labels).sum().item()
print("accuracy %d %%" % (100 * correct / total))
