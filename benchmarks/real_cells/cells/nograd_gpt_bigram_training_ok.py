# ruff: noqa
"""A bigram language model trained on random batches of a character corpus (the training needs autograd).

source: Andrej Karpathy's "Let's build GPT" (gpt-dev.ipynb in karpathy/ng-video-lecture): get_batch
        draws batch_size offsets and stacks blocks of block_size characters; BigramLanguageModel is
        one nn.Embedding(vocab_size, vocab_size); AdamW at 1e-3, loss.backward() each step
family: no-grad
kind: healthy
verdict: AIP907|AIP908|none
rewrite: no: a training loop (autograd is the point); a larger batch is a modelling choice
size: 1,000,000 characters of a 65-symbol vocabulary, batch 32, block 8, 1,500 steps
scaled: yes: the notebook trains 10,000 steps on the 1,115,394 characters of tiny Shakespeare
kernel: torch
"""
# %% setup
import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
vocab_size = 65
data = torch.randint(0, vocab_size, (1_000_000,), dtype=torch.long)
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]
block_size, batch_size = 8, 32


def get_batch(split):
    data = train_data if split == "train" else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)
        B, T, C = logits.shape
        loss = F.cross_entropy(logits.view(B * T, C), targets.view(B * T))
        return logits, loss


m = BigramLanguageModel(vocab_size)
optimizer = torch.optim.AdamW(m.parameters(), lr=1e-3)
# %% cell
for steps in range(1_500):
    xb, yb = get_batch("train")
    logits, loss = m(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(loss.item())
