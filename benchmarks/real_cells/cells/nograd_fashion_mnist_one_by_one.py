# ruff: noqa
"""Test accuracy of a Fashion-MNIST classifier, one image at a time, with autograd on.

source: Udacity's deep-learning-v2-pytorch, "Part 5 - Inference and Validation" (model.eval();
        img = images[i].view(1, 784); ps = torch.exp(model(img)); top_class = ps.argmax(dim=1)),
        written as a loop over the test images without the notebook's torch.no_grad()
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: the same loop inside torch.inference_mode(), or one model(test_images.view(-1, 784)) (the same classes)
size: 10,000 test images of 28 x 28, a 784-256-128-64-10 classifier
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(134)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                      nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10), nn.LogSoftmax(dim=1))
test_images = torch.rand(10_000, 28, 28)
test_labels = torch.randint(0, 10, (10_000,))
# %% cell
model.eval()
correct = 0
for i in range(len(test_images)):  # expect: AIP502
    img = test_images[i].view(1, 784)
    ps = torch.exp(model(img))  # expect: AIP502
    top_class = ps.argmax(dim=1)
    correct += int(top_class.item() == test_labels[i].item())
accuracy = correct / len(test_images)
