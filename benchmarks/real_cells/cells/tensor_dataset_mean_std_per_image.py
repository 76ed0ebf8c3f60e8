# ruff: noqa
"""Per-channel mean and std of an image data set for Normalize, accumulated one image at a time in a Python loop.

source: the snippet passed around PyTorch forum threads and blog posts for a data set's
        normalisation constants (mean = torch.zeros(3); std = torch.zeros(3); for img in images:
        mean += img.mean(dim=(1, 2)); std += img.std(dim=(1, 2)); then both divided by the
        count), run over the training images as tensors before transforms.Normalize(mean, std)
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: images.mean(dim=(0, 2, 3)) and images.std(dim=(2, 3)).mean(0) over the stacked tensor (the same numbers to float rounding)
size: 12,000 images of 3 x 32 x 32 (CIFAR-sized)
scaled: yes: CIFAR-10 has 50,000 training images
kernel: torch
unsure: each step is a reduction over one image's 3,072 values, not one number; the loop's cost is
        four small tensor calls per image, and AIP201 (a loop over a tensor's items) is the code that names it
"""
# %% setup
import torch

torch.manual_seed(323)
train_images = torch.rand(12_000, 3, 32, 32)
# %% cell
mean = torch.zeros(3)
std = torch.zeros(3)
for img in train_images:  # expect: AIP201
    mean += img.mean(dim=(1, 2))  # expect: AIP201
    std += img.std(dim=(1, 2))  # expect: AIP201
mean /= len(train_images)
std /= len(train_images)
