# ruff: noqa
"""An epoch of logistic regression on MNIST with hand-sliced batches and a manual SGD update.

source: PyTorch tutorials, "What is torch.nn really?" (Jeremy Howard): for i in range((n - 1) // bs
        + 1): xb = x_train[start_i:end_i]; pred = model(xb); loss = loss_func(pred, yb);
        loss.backward(); with torch.no_grad(): weights -= weights.grad * lr ...
family: tensor-loop
kind: healthy
verdict: none|AIP907|AIP908
rewrite: no: the tutorial's own first loop; each step is tensor work on a slice of data in memory
size: 50,000 images of 784 values, batch 64, one epoch
scaled: no
kernel: torch
"""
# %% setup
import math

import torch

torch.manual_seed(50)
x_train = torch.rand(50_000, 784)
y_train = torch.randint(0, 10, (50_000,))
n = x_train.shape[0]
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
# %% cell
lr = 0.5
bs = 64
for epoch in range(1):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
