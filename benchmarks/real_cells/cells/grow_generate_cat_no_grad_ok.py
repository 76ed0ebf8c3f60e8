# ruff: noqa
"""Greedy generation that grows the token tensor with torch.cat and feeds it back, under no_grad.

source: Build a Large Language Model From Scratch (rasbt/LLMs-from-scratch), ch04
        generate_text_simple (idx = torch.cat((idx, idx_next), dim=1) inside torch.no_grad())
family: growing
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: each step reads the sequence so far (the growth is the algorithm)
size: a 2-layer model of width 128, 60 new tokens, context 64
scaled: yes: the book's GPT-2 has 124 million weights; a small model of the same shape here
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(123)


class TinyGPT(nn.Module):
    def __init__(self, vocab_size=5000, emb_dim=128, context_length=64, n_layers=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, emb_dim)
        self.pos_emb = nn.Embedding(context_length, emb_dim)
        layer = nn.TransformerEncoderLayer(emb_dim, nhead=4, dim_feedforward=4 * emb_dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.out_head = nn.Linear(emb_dim, vocab_size, bias=False)

    def forward(self, idx):
        n = idx.shape[1]
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(n))
        mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        return self.out_head(self.blocks(x, mask=mask))


model = TinyGPT().eval()
encoded = torch.tensor([[15496, 11, 314, 716]]) % 5000
# %% cell
def generate_text_simple(model, idx, max_new_tokens, context_size):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


out = generate_text_simple(model=model, idx=encoded, max_new_tokens=60, context_size=64)
print("Output length:", len(out[0]))
