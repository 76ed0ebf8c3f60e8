# ruff: noqa
"""The running mean of the previous tokens' vectors, written as two for loops over batch and time.

source: Andrej Karpathy's "Let's build GPT: from scratch, in code, spelled out" (gpt-dev.ipynb in
        karpathy/ng-video-lecture), "the mathematical trick in self-attention", version 1:
        xbow[b, t] = torch.mean(x[b, :t+1], 0) in loops over B and T, before the tril matmul
        and softmax versions
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: wei = torch.tril(torch.ones(T, T)); wei = wei / wei.sum(1, keepdim=True); xbow = wei @ x (equal up to float rounding)
size: B, T, C = 160, 256, 32
scaled: yes: the notebook uses B, T, C = 4, 8, 2 (it only shows the idea)
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(1337)
B, T, C = 160, 256, 32
x = torch.randn(B, T, C)
# %% cell
xbow = torch.zeros((B, T, C))
for b in range(B):  # expect: AIP201
    for t in range(T):  # expect: AIP201
        xprev = x[b, :t + 1]  # expect: AIP201
        xbow[b, t] = torch.mean(xprev, 0)  # expect: AIP201
