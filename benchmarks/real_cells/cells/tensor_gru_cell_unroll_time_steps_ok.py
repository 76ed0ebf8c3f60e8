# ruff: noqa
"""A character-level language model trained with a GRUCell unrolled over the time steps in a Python loop: each step needs the last hidden state.

source: RNN-from-scratch course notebooks (d2l's "Recurrent Neural Network Implementation from
        Scratch", char-RNN tutorials) that unroll the cell by hand (for t in range(seq_len): h =
        cell(embed(x[:, t]), h); outputs.append(h)), then one output layer over the stacked states
        and a cross-entropy over the sequence
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the loop over time is the recurrence; each step is a batch of 64 through a 256-unit cell, so the arithmetic outweighs the Python (nn.GRU would run the same steps in C++)
size: batches of 64 sequences of 35 characters, a 64-wide embedding, 256 hidden units, 12 steps of training
scaled: no
kernel: torch
"""
# %% setup
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(422)
vocab_size, seq_len, hidden = 60, 35, 256
corpus = torch.randint(0, vocab_size, (200_000,))
embed = nn.Embedding(vocab_size, 64)
cell = nn.GRUCell(64, hidden)
head = nn.Linear(hidden, vocab_size)
params = list(embed.parameters()) + list(cell.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=2e-3)


def get_batch(batch_size=64):
    starts = torch.randint(0, len(corpus) - seq_len - 1, (batch_size,))
    x = torch.stack([corpus[s:s + seq_len] for s in starts])
    y = torch.stack([corpus[s + 1:s + seq_len + 1] for s in starts])
    return x, y
# %% cell
losses = []
for step in range(12):
    x, y = get_batch()
    h = torch.zeros(x.shape[0], hidden)
    outputs = []
    for t in range(seq_len):
        h = cell(embed(x[:, t]), h)
        outputs.append(h)
    logits = head(torch.stack(outputs, dim=1))
    loss = F.cross_entropy(logits.reshape(-1, vocab_size), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    optimizer.step()
    losses.append(loss.item())
