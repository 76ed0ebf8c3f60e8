# ruff: noqa
"""A fraud classifier trained on an imbalanced tabular set through a WeightedRandomSampler over a TensorDataset: each sample is one indexing of tensors in memory.

source: PyTorch tutorials and Kaggle notebooks on credit-card fraud that rebalance classes with
        WeightedRandomSampler (class_counts = torch.bincount(y); weights = 1.0 /
        class_counts[y]; DataLoader(TensorDataset(X, y), batch_size=512, sampler=sampler)),
        feeding a small MLP
family: dataloader
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the samples are rows of tensors already in memory and the sampler draws indices in one call; workers would only add the cost of sending batches between processes
size: 30,000 transactions of 30 features (3 % fraud), batch 512, one epoch of a 30-512-512-1 MLP
scaled: yes: the Kaggle credit-card data set holds 284,807 transactions; about a tenth of them
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(525)
n = 30_000
X_train = torch.randn(n, 30)
y_train = ((X_train[:, :3].sum(1) + 0.5 * torch.randn(n)) > 3.3).long()
train_set = TensorDataset(X_train, y_train.float())
model = nn.Sequential(nn.Linear(30, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
class_counts = torch.bincount(y_train)
sample_weights = 1.0 / class_counts[y_train].float()
sampler = WeightedRandomSampler(sample_weights, num_samples=len(sample_weights), replacement=True)
loader = DataLoader(train_set, batch_size=512, sampler=sampler)
model.train()
for xb, yb in loader:
    loss = criterion(model(xb).squeeze(1), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
