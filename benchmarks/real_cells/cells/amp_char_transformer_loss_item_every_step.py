# ruff: noqa
"""A character-level transformer language model (about 3.2 million weights) trained in float32 with no autocast, its loss read with loss.item() at every step for the progress log.

source: "build a GPT from scratch" notebooks and nanoGPT-style training loops on Tiny Shakespeare
        (get_batch() slicing random blocks of the encoded text kept on the device; for it in
        range(max_iters): logits = model(xb); loss = F.cross_entropy(...); loss.backward();
        optimizer.step(); losses.append(loss.item())), with nn.TransformerEncoder layers and a
        causal mask, device = "cuda" if available
family: amp
kind: slow
verdict: AIP907|AIP908
rewrite: yes on a GPU: torch.autocast("cuda", dtype=torch.bfloat16) around the forward pass and the loss, and the losses kept as tensors (losses.append(loss.detach())) read once every eval_interval steps
size: 4 steps of 16 blocks of 64 characters, 4 layers of width 256 (about 3.2 million weights)
scaled: yes: a few steps of the thousands a training run takes
kernel: torch
cpu: mixed precision and the host-device sync are about a GPU: on a CPU machine both traps do not
     exist here (neutral); the run is CPU-bound matrix products
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(621)
rng = np.random.default_rng(621)
device = "cuda" if torch.cuda.is_available() else "cpu"
chars = sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;:!?'-\n"))
text_ids = rng.choice(len(chars), 1_000_000)
data = torch.tensor(text_ids, dtype=torch.long, device=device)
block_size, batch_size, d_model = 64, 16, 256


def get_batch():
    ix = torch.randint(len(data) - block_size - 1, (batch_size,)).tolist()
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


class CharTransformer(nn.Module):
    def __init__(self, vocab, d_model, n_layers=4, n_heads=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout=0.1, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(block_size))

    def forward(self, idx):
        h = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        return self.head(self.blocks(h, mask=self.mask, is_causal=True))


model = CharTransformer(len(chars), d_model).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
max_iters = 4
# %% cell
model.train()
losses = []
for it in range(max_iters):  # expect[cuda]: AIP504
    xb, yb = get_batch()
    logits = model(xb)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())  # expect[cuda]: AIP505
