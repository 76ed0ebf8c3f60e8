# ruff: noqa
"""Bigram counts of 32,033 names added one by one into a torch tensor: N[ix1, ix2] += 1.

source: Andrej Karpathy, "The spelled-out intro to language modeling: building makemore"
        (nn-zero-to-hero, makemore_part1_bigrams.ipynb): for w in words: chs = ['.'] + list(w) +
        ['.']; for ch1, ch2 in zip(chs, chs[1:]): N[stoi[ch1], stoi[ch2]] += 1, over names.txt
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: the index pairs collected in two lists, then N.index_put_((xs, ys), ones, accumulate=True)
size: 32,033 names, 228,146 bigrams, a 27 x 27 int32 tensor
scaled: no
kernel: torch
"""
# %% setup
import numpy as np
import torch

rng = np.random.default_rng(32033)
letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
lengths = rng.integers(2, 11, 32033)
words = ["".join(rng.choice(letters, k)) for k in lengths]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
# %% cell
N = torch.zeros((27, 27), dtype=torch.int32)
for w in words:  # expect: AIP201
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):  # expect: AIP201
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        N[ix1, ix2] += 1  # expect: AIP201
