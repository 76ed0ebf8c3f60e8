# ruff: noqa
"""torch.randn on the CPU, then .to(device), every iteration, before the model call.

source: the seed article, chapter 4.1 (x = torch.randn(64, 1000); x = x.cuda(); y = model(x) in a
        loop of 100), written with device = "cuda" if available, as tutorials do
family: device-copy
kind: slow
verdict: none|AIP907|AIP908
rewrite: yes on a GPU: torch.randn(64, 1000, device=device); none needed on a CPU
size: 300 iterations of a 64 x 1000 batch through Linear(1000, 10)
scaled: no
kernel: torch
cpu: on a CPU machine .to(device) is a no-op: the trap exists only with CUDA, so this run can
     show nothing true about it (the trap is left out of recall here; a finding on it is neutral)
"""
# %% setup
import torch

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(1000, 10).to(device)
# %% cell
for _ in range(300):
    x = torch.randn(64, 1000)  # expect[cuda]: AIP501
    x = x.to(device)  # expect[cuda]: AIP501
    y = model(x)
