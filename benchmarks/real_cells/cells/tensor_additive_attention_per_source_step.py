# ruff: noqa
"""Greedy decoding of a seq2seq model with additive (Bahdanau) attention whose energies are computed one source position at a time, the encoder projection redone at every decoder step.

source: seq2seq translation tutorials that write the attention score as a loop over the encoder
        outputs (for s in range(src_len): energy = v(torch.tanh(W_enc(enc_out[:, s]) +
        W_dec(hidden))); energies.append(energy)), then softmax, context and a GRU cell step,
        here decoding a batch of sentences under no_grad
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: keys = W_enc(enc_out) once before decoding (every position at once), then per step energies = v(torch.tanh(keys + W_dec(hidden).unsqueeze(1))).squeeze(2) (the same energies and tokens up to rounding)
size: 64 sentences of 80 source positions, 128 hidden units, 40 decoding steps (3,200 attention steps)
scaled: no
kernel: torch
unsure: each inner step is three small layer calls on a batch of 64 (work for whole tensors, repeated per
        position); no rule of the catalog names a loop over positions, and any code on these lines is accepted
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(514)
B, src_len, H, vocab, max_len = 64, 80, 128, 500, 40
enc_out = torch.randn(B, src_len, H)
embed = nn.Embedding(vocab, H)
W_enc = nn.Linear(H, H, bias=False)
W_dec = nn.Linear(H, H)
v = nn.Linear(H, 1, bias=False)
cell = nn.GRUCell(2 * H, H)
out = nn.Linear(H, vocab)
# %% cell
tokens = []
with torch.no_grad():
    hidden = enc_out[:, -1]
    inp = embed(torch.ones(B, dtype=torch.long))
    for step in range(max_len):
        energies = []
        for s in range(src_len):  # expect: *
            energies.append(v(torch.tanh(W_enc(enc_out[:, s]) + W_dec(hidden))))  # expect: *
        attn = torch.softmax(torch.cat(energies, dim=1), dim=1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        hidden = cell(torch.cat([inp, context], dim=1), hidden)
        next_token = out(hidden).argmax(dim=1)
        tokens.append(next_token)
        inp = embed(next_token)
translations = torch.stack(tokens, dim=1)
