# ruff: noqa
"""A Vision Transformer's patchify step written with three loops: every image of the batch cut into 4 x 4 patches one slice at a time, each patch flattened into a row of a preallocated tensor.

source: "ViT from scratch" tutorials and blog posts on MNIST and CIFAR-10 (def patchify(images,
        n_patches): patches = torch.zeros(n, n_patches ** 2, h * w * c // n_patches ** 2); for idx,
        image in enumerate(images): for i in range(n_patches): for j in range(n_patches): patch =
        image[:, i * p:(i + 1) * p, j * p:(j + 1) * p]; patches[idx, i * n_patches + j] =
        patch.flatten()), run on the training images before the linear patch embedding
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: images.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(n, -1, c * p * p) (the same tensor, exactly)
size: 800 CIFAR-sized images (3 x 32 x 32), 64 patches each (51,200 slices)
scaled: yes: CIFAR-10 has 50,000 training images; 800 of them
kernel: torch
unsure: the loop body copies tensor slices rather than doing arithmetic on numbers; AIP201 is the nearest code, and any code on these lines is accepted
"""
# %% setup
import torch

torch.manual_seed(719)
images = torch.rand(800, 3, 32, 32)
patch_size = 4
# %% cell
def patchify(images, patch_size):
    n, c, h, w = images.shape
    n_h, n_w = h // patch_size, w // patch_size
    patches = torch.zeros(n, n_h * n_w, c * patch_size * patch_size)
    for idx, image in enumerate(images):  # expect: *
        for i in range(n_h):  # expect: *
            for j in range(n_w):  # expect: *
                patch = image[:, i * patch_size:(i + 1) * patch_size, j * patch_size:(j + 1) * patch_size]  # expect: *
                patches[idx, i * n_w + j] = patch.flatten()  # expect: *
    return patches


tokens = patchify(images, patch_size)
