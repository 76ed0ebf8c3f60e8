# ruff: noqa
"""Permutation feature importance of a tabular PyTorch model by hand: each of 40 columns of the validation set shuffled in turn and the loss measured again, with the model in eval mode and autograd on.

source: tabular deep-learning and interpretability notebooks (permutation importance written for a
        torch model because scikit-learn's needs an estimator: model.eval(); base =
        loss_fn(model(X_val), y_val).item(); for j, name in enumerate(features): X_perm =
        X_val.clone(); X_perm[:, j] = X_perm[torch.randperm(n), j]; imp[name] =
        loss_fn(model(X_perm), y_val).item() - base), after the model was trained in earlier cells
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: the loop under torch.inference_mode() (the same losses, no graph recorded for the 40 forward passes)
size: 15,000 validation rows of 40 features, a 40-256-256-1 MLP, 40 permutations
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(618)
n_val, n_features = 15_000, 40
feature_names = [f"f{j:02d}" for j in range(n_features)]
X_val = torch.randn(n_val, n_features)
weights = torch.zeros(n_features)
weights[:8] = torch.linspace(2.0, 0.3, 8)
y_val = (X_val @ weights + 0.3 * torch.randn(n_val)).unsqueeze(1)
model = nn.Sequential(nn.Linear(n_features, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
loss_fn = nn.MSELoss()
X_train = torch.randn(8_000, n_features)
y_train = (X_train @ weights + 0.3 * torch.randn(8_000)).unsqueeze(1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(150):
    idx = torch.randint(0, len(X_train), (256,))
    optimizer.zero_grad()
    loss_fn(model(X_train[idx]), y_train[idx]).backward()
    optimizer.step()
# %% cell
model.eval()
base = loss_fn(model(X_val), y_val).item()
importance = {}
for j, name in enumerate(feature_names):  # expect: AIP502
    X_perm = X_val.clone()
    X_perm[:, j] = X_perm[torch.randperm(n_val), j]
    importance[name] = loss_fn(model(X_perm), y_val).item() - base  # expect: AIP502
ranking = sorted(importance.items(), key=lambda kv: kv[1], reverse=True)[:10]
