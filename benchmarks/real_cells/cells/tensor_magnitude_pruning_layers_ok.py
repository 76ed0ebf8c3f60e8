# ruff: noqa
"""Global magnitude pruning by hand: one threshold over all Linear weights, then a loop over the layers that zeroes the small ones.

source: pruning tutorials and lottery-ticket notebooks that prune without torch.nn.utils.prune
        (all_weights = torch.cat([m.weight.abs().flatten() for m in linears]); threshold =
        all_weights.kthvalue(k).values; with torch.no_grad(): for m in linears:
        m.weight.mul_(m.weight.abs() > threshold)), then the sparsity per layer
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: a loop over six layers, each step whole-tensor operations on a layer's weights
size: six 1,536 x 1,536 Linear layers (14 million weights), 80 % pruned
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(331)
model = nn.Sequential(*[m for _ in range(6) for m in (nn.Linear(1_536, 1_536), nn.ReLU())])
amount = 0.8
# %% cell
linears = [m for m in model.modules() if isinstance(m, nn.Linear)]
all_weights = torch.cat([m.weight.detach().abs().flatten() for m in linears])
k = int(amount * all_weights.numel())
threshold = all_weights.kthvalue(k).values
sparsity = {}
with torch.no_grad():
    for i, m in enumerate(linears):
        mask = m.weight.abs() > threshold
        m.weight.mul_(mask)
        sparsity[f"layer {i}"] = 1.0 - mask.float().mean().item()
