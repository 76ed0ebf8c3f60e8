# ruff: noqa
"""A Vision Transformer's patch embedding the library way: the batch cut into 4 x 4 patches with two unfolds and a reshape, then one linear projection and the class token, under inference mode.

source: ViT implementations in PyTorch tutorials (patches = x.unfold(2, p, p).unfold(3, p, p)
        .permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p); tokens = proj(patches); torch.cat
        with a learned [CLS] token plus positional embeddings), applied to a set of images to embed
family: tensor-loop
kind: healthy
verdict: none|AIP907|AIP908
rewrite: no: the patchify is a view and a copy, the projection one matrix product per batch
size: 6,000 CIFAR-sized images (3 x 32 x 32) in batches of 2,000, 64 patches each, a 48 -> 192 projection
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn

torch.manual_seed(720)
images = torch.rand(6_000, 3, 32, 32)
patch_size, d_model = 4, 192
proj = nn.Linear(3 * patch_size * patch_size, d_model)
cls_token = nn.Parameter(torch.zeros(1, 1, d_model))
pos_embed = nn.Parameter(torch.randn(1, 65, d_model) * 0.02)
# %% cell
def patchify(x, p):
    b, c, h, w = x.shape
    return x.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p)


embedded = []
with torch.inference_mode():
    for batch in images.split(2_000):
        tokens = proj(patchify(batch, patch_size))
        tokens = torch.cat([cls_token.expand(len(batch), -1, -1), tokens], dim=1) + pos_embed
        embedded.append(tokens[:, 0])
cls_features = torch.cat(embedded)
