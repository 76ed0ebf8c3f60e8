# ruff: noqa
"""Semantic search: all queries embedded in batches of 256 under inference_mode, then one similarity product and topk.

source: sentence-embedding search notebooks (sentence-transformers' semantic search examples and
        the PyTorch retrieval tutorials: embeddings computed once in large batches with gradients
        off, normalised, scores = queries @ corpus.T, torch.topk(scores, k=5)), with a small
        mean-pooling encoder standing in for the pretrained one
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the inference is batched and runs under torch.inference_mode(); the time is the encoder's and the similarity product's arithmetic
size: 20,000 corpus sentences and 2,000 queries of 32 tokens, batch 256
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(225)


class MeanPoolEncoder(nn.Module):
    def __init__(self, vocab=30_000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Sequential(nn.Linear(dim, 512), nn.GELU(), nn.Linear(512, dim))

    def forward(self, ids):
        return self.proj(self.embed(ids).mean(dim=1))


encoder = MeanPoolEncoder().eval()
corpus_ids = torch.randint(0, 30_000, (20_000, 32))
query_ids = torch.randint(0, 30_000, (2_000, 32))


def embed_all(ids, batch_size=256):
    return torch.cat([F.normalize(encoder(ids[i:i + batch_size]), dim=-1) for i in range(0, len(ids), batch_size)])
# %% cell
with torch.inference_mode():
    corpus_emb = embed_all(corpus_ids)
    query_emb = embed_all(query_ids)
    scores = query_emb @ corpus_emb.T
    top_scores, top_ids = torch.topk(scores, k=5, dim=1)
