# ruff: noqa
"""A linear MNIST 3-vs-7 model trained from a DataLoader over list(zip(train_x, train_y)): every batch stacks 256 tensors.

source: fastai's fastbook, chapter 4 "Under the Hood: Training a Digit Classifier" (dset =
        list(zip(train_x, train_y)); dl = DataLoader(dset, batch_size=256); linear1, mnist_loss,
        calc_grad and train_epoch in earlier cells; for i in range(20): train_epoch(model, lr,
        params)), here with torch's own DataLoader
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: batches sliced from the stacked tensors (train_x[i:i + 256], train_y[i:i + 256]): the same batches in the same order, no per-sample stacking
size: 12,396 images of 784 values, batch 256, 20 epochs
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch.utils.data import DataLoader

torch.manual_seed(129)
train_x = torch.rand(12_396, 28 * 28)
train_y = torch.cat([torch.ones(6_131), torch.zeros(6_265)]).unsqueeze(1)
weights = (torch.randn(28 * 28, 1) * 1.0).requires_grad_()
bias = (torch.randn(1) * 1.0).requires_grad_()
params = weights, bias
lr = 1.0


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()


def train_epoch(model, lr, params):
    for xb, yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()
# %% cell
dset = list(zip(train_x, train_y))  # expect: *
dl = DataLoader(dset, batch_size=256)  # expect: *
for i in range(20):
    train_epoch(linear1, lr, params)  # expect: *
final_loss = mnist_loss(linear1(train_x), train_y).item()
