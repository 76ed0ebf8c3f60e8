# ruff: noqa
"""Entropic optimal transport between two point clouds by Sinkhorn iterations in torch: a Python loop of matrix-vector products, each iteration needing the last.

source: optimal-transport tutorials and notebooks (POT's and the "computational optimal transport"
        course's Sinkhorn in a few lines: K = torch.exp(-C / eps); for it in range(n_iter): u = a /
        (K @ v); v = b / (K.T @ u), a convergence check every few iterations against POT's default
        threshold of 1e-9), then the transport plan and its cost
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the loop is the algorithm's recurrence, and every iteration is two products of a 1,500 x 1,500 matrix with a vector; the Python per iteration is nothing next to them
size: two clouds of 1,500 points, at most 500 iterations
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(515)
n = 1_500
xs = torch.randn(n, 2) * torch.tensor([1.0, 0.5])
ys = torch.randn(n, 2) * 0.7 + torch.tensor([2.0, 1.0])
C = torch.cdist(xs, ys) ** 2
C = C / C.max()
eps = 0.005
a = torch.full((n,), 1.0 / n)
b = torch.full((n,), 1.0 / n)
# %% cell
K = torch.exp(-C / eps)
u = torch.ones(n)
v = torch.ones(n)
for it in range(500):
    u = a / (K @ v)
    v = b / (K.T @ u)
    if it % 20 == 0:
        marginal_error = (u * (K @ v) - a).abs().sum()
        if marginal_error.item() < 1e-9:
            break
plan = u[:, None] * K * v[None, :]
transport_cost = (plan * C).sum()
