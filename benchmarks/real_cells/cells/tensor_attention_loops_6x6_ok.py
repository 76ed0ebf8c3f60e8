# ruff: noqa
"""Attention scores for a six-token sentence with two nested loops of torch.dot.

source: Build a Large Language Model From Scratch (rasbt/LLMs-from-scratch), ch03 main notebook
        (attn_scores[i, j] = torch.dot(x_i, x_j) over six 3-d embeddings, before inputs @ inputs.T)
family: tensor-loop
kind: healthy
verdict: none
rewrite: no: 36 products; the matrix product is the book's next step, not a speed-up that matters
size: 6 tokens x 3 dimensions
scaled: no
kernel: torch
"""
# %% setup
import torch

inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                       [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
# %% cell
attn_scores = torch.empty(6, 6)
for i, x_i in enumerate(inputs):
    for j, x_j in enumerate(inputs):
        attn_scores[i, j] = torch.dot(x_i, x_j)
attn_weights = torch.softmax(attn_scores, dim=-1)
all_context_vecs = attn_weights @ inputs
