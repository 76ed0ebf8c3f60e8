# ruff: noqa
"""Names sampled from the bigram model one character at a time with torch.multinomial.

source: Andrej Karpathy, makemore_part1_bigrams.ipynb (g = torch.Generator().manual_seed(...);
        for i in range(...): while True: p = P[ix]; ix = torch.multinomial(p, 1, ...).item();
        out.append(itos[ix]); if ix == 0: break)
family: tensor-loop
kind: healthy
verdict: none|AIP907
rewrite: no: each character is drawn from the row the previous one picked
size: 1,000 names from a 27 x 27 probability table
scaled: no
kernel: torch
"""
# %% setup
import torch

g0 = torch.Generator().manual_seed(2147483647)
N = torch.randint(1, 500, (27, 27), generator=g0)
N[:, 0] += 400
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
itos = {i + 1: s for i, s in enumerate("abcdefghijklmnopqrstuvwxyz")}
itos[0] = "."
# %% cell
g = torch.Generator().manual_seed(2147483647)
names_out = []
for i in range(1000):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    names_out.append("".join(out))
