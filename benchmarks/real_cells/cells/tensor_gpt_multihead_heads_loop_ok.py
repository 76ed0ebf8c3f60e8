# ruff: noqa
"""Training steps of a small GPT block whose multi-head attention loops over its 6 heads and concatenates them.

source: Andrej Karpathy's "Let's build GPT: from scratch, in code, spelled out" (gpt.py in
        karpathy/ng-video-lecture: class MultiHeadAttention: self.heads = nn.ModuleList([Head(head_size)
        for _ in range(num_heads)]); out = torch.cat([h(x) for h in self.heads], dim=-1)), trained a
        few steps on random batches of token ids
family: tensor-loop
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: the loop is over 6 heads, each a batched matrix product on the whole (16, 64, 384) batch; the time is the arithmetic
size: batch 16 x 64 tokens, 384 embedding, 6 heads, 5 training steps
scaled: yes: the lecture's batch is 64 x 256 on a GPU; a CPU-sized batch
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(220)
vocab_size, n_embd, n_head, block_size = 65, 384, 6, 64


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = F.softmax(wei.masked_fill(self.tril[:T, :T] == 0, float("-inf")), dim=-1)
        return wei @ self.value(x)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads, head_size):
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        return self.proj(torch.cat([h(x) for h in self.heads], dim=-1))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.sa = MultiHeadAttention(n_head, n_embd // n_head)
        self.ff = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd))
        self.ln1, self.ln2 = nn.LayerNorm(n_embd), nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        x = x + self.sa(self.ln1(x))
        x = x + self.ff(self.ln2(x))
        return self.head(x)


model = TinyGPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.randint(0, vocab_size, (200_000,))


def get_batch():
    ix = torch.randint(len(data) - block_size - 1, (16,))
    return (torch.stack([data[i:i + block_size] for i in ix]),
            torch.stack([data[i + 1:i + block_size + 1] for i in ix]))
# %% cell
for step in range(5):
    xb, yb = get_batch()
    logits = model(xb)
    loss = F.cross_entropy(logits.view(-1, vocab_size), yb.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
final_loss = loss.item()
