# ruff: noqa
"""Monte Carlo dropout: thirty stochastic passes over the test set with dropout on, the softmax outputs stacked, autograd recording every pass.

source: uncertainty-estimation notebooks after Gal and Ghahramani's MC dropout (model.train() or
        dropout layers switched back on; for t in range(T): outputs.append(F.softmax(model(x),
        dim=1)); probs = torch.stack(outputs); predictive mean and entropy), written without
        torch.no_grad()
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: the same loop under torch.no_grad() (dropout stays on: it depends on the module's mode, not on autograd); the same samples, no graphs kept
size: 1,000 test images of 784 values, a 784-256-256-10 MLP with dropout 0.5, 30 passes
scaled: yes: MNIST's test set has 10,000 images; a tenth of it
kernel: torch
unsure: the model is in training mode on purpose (dropout must sample), so nothing calls .eval();
        every stacked output keeps its pass's graph and activations alive until the cell ends
"""
# %% setup
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(321)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(256, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 10))
x_test = torch.rand(1_000, 784)
T = 30
# %% cell
model.train()
outputs = []
for t in range(T):  # expect: AIP502
    outputs.append(F.softmax(model(x_test), dim=1))  # expect: AIP502
probs = torch.stack(outputs)
mean_probs = probs.mean(0)
entropy = -(mean_probs * torch.log(mean_probs + 1e-12)).sum(1)
uncertain = (entropy > 1.5).float().mean().item()
