# ruff: noqa
"""Train and validation accuracy measured after every epoch for the learning curves, with autograd on.

source: Kaggle and course notebooks that plot learning curves (def evaluate(model, loader):
        model.eval(); for x, y in loader: out = model(x); correct += (out.argmax(1) == y).sum()
        .item(); called on the train and the validation loader after each epoch's training, no
        torch.no_grad() in it), the shape of many tabular and MNIST-style PyTorch notebooks
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: the evaluate function's loop under torch.no_grad() (or @torch.inference_mode()): the same accuracies
size: 16,000 training and 4,000 validation rows of 64 features, batch 128, 2 epochs of an MLP of 256 units
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(216)
x = torch.randn(20_000, 64)
y = (x[:, :8].sum(dim=1) > 0).long()
train_loader = DataLoader(TensorDataset(x[:16_000], y[:16_000]), batch_size=128, shuffle=True)
val_loader = DataLoader(TensorDataset(x[16_000:], y[16_000:]), batch_size=128)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
# %% cell
def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    for xb, yb in loader:  # expect: AIP502
        out = model(xb)  # expect: AIP502
        correct += (out.argmax(dim=1) == yb).sum().item()
        total += len(yb)
    return correct / total


history = []
for epoch in range(2):
    model.train()
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    history.append((evaluate(model, train_loader), evaluate(model, val_loader)))  # expect: AIP502
