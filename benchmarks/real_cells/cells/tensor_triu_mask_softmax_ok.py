# ruff: noqa
"""A causal mask from torch.triu and masked softmax over a batch of attention scores.

source: Build a Large Language Model From Scratch (rasbt/LLMs-from-scratch), ch03 (torch.triu mask
        and masked_fill before softmax), at a GPT-2-small context
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: already vectorised
size: batch 4 x 12 heads x 512 x 512 scores
scaled: no
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(0)
scores = torch.randn(4, 12, 512, 512)
# %% cell
context_length = scores.shape[-1]
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
masked = scores.masked_fill(mask.bool(), -torch.inf)
attn_weights = torch.softmax(masked / 8.0, dim=-1)
