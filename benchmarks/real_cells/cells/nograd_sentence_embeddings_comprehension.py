# ruff: noqa
"""Sentence vectors from an embedding model, one sentence per call in a list comprehension, autograd on.

source: PyTorch NLP tutorials and text-classification notebooks (an nn.EmbeddingBag text model;
        afterwards its embedding of each sentence is taken for similarity search, one sentence at
        a time, with the model still recording gradients)
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: with torch.inference_mode(): around the comprehension (and batching the sentences)
size: 4,000 sentences of 30 token ids, a 20,000 x 256 EmbeddingBag and a 256-256 projection
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(30)


class TextEncoder(nn.Module):
    def __init__(self, vocab_size=20_000, dim=256):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        return torch.tanh(self.proj(self.embedding(ids.unsqueeze(0))))


encoder = TextEncoder()
encoder.eval()
sentences = [torch.randint(0, 20_000, (30,)) for _ in range(4000)]
# %% cell
vectors = [encoder(ids) for ids in sentences]  # expect: AIP502 ok: AIP506
matrix = torch.cat(vectors)
