# ruff: noqa
"""The quickstart's epoch loop: train() moves every batch with .to(device); images are converted per item.

source: PyTorch tutorials (pytorch/tutorials), beginner_source/basics/quickstart_tutorial.py
        (FashionMNIST with ToTensor, DataLoader(batch_size=64), train() and test() helpers, then
        "for t in range(epochs)")
family: device-copy
kind: slow
verdict: AIP907|AIP908
rewrite: yes: num_workers (and pin_memory with non_blocking copies on a GPU)
size: 6,000 train and 1,000 test images of 28 x 28, batch 64, the quickstart's 512-wide MLP
scaled: yes: FashionMNIST has 60,000 training and 10,000 test images
kernel: torch
cpu: the per-batch copies cost nothing on a CPU (AIP102 is neutral here); the per-item
     conversion in the Dataset (ToTensor's work) is real on any machine
unsure: on a CPU the model step takes about as long as the loading, so AIP101 is a real but
        moderate share here
"""
# %% setup
import numpy as np
import torch
from cell_data import images
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(6)
device = "cuda" if torch.cuda.is_available() else "cpu"


class FashionLike(Dataset):
    def __init__(self, n, seed):
        self.images, self.labels = images(n, seed=seed)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx]).to(torch.float32).div(255).unsqueeze(0)
        return image, int(self.labels[idx])


train_dataloader = DataLoader(FashionLike(6_000, 81), batch_size=64)
test_dataloader = DataLoader(FashionLike(1_000, 82), batch_size=64)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(28 * 28, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                                               nn.Linear(512, 10))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


model = NeuralNetwork().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train(dataloader, model, loss_fn, optimizer):
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def test(dataloader, model, loss_fn):
    model.eval()
    correct = 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            correct += (model(X).argmax(1) == y).type(torch.float).sum().item()
    return correct / len(dataloader.dataset)
# %% cell
epochs = 1
for t in range(epochs):
    train(train_dataloader, model, loss_fn, optimizer)  # expect: AIP101 expect[cuda]: AIP102
    test(test_dataloader, model, loss_fn)
