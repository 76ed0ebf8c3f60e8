# ruff: noqa
"""Histogram equalisation by hand: count the pixel values in a loop, build the lookup table, map every pixel.

source: histogram-equalisation tutorials for computer-vision courses (hist = [0] * 256; for pixel in
        img.flatten(): hist[pixel] += 1; the cumulative sum scaled to 0..255 as a lookup table; then
        the image rebuilt from [lut[p] for p in img.flatten()]), before np.bincount or cv2.equalizeHist
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: np.bincount(img.ravel(), minlength=256) for the counts and lut[img] for the mapping (the same integers)
size: a 1600 x 1200 grayscale image (uint8), two megapixels
scaled: yes: the tutorials use a 512 x 512 test image; here a phone-camera-sized one
kernel: data
"""
# %% setup
import numpy as np

img = np.random.default_rng(123).normal(100, 30, (1200, 1600)).clip(0, 255).astype(np.uint8)
# %% cell
hist = [0] * 256
for pixel in img.flatten():  # expect: AIP201/counts
    hist[pixel] += 1  # expect: AIP201/counts
cdf = np.cumsum(hist)
lut = np.round((cdf - cdf.min()) * 255 / (cdf.max() - cdf.min())).astype(np.uint8)
equalized = np.array([lut[p] for p in img.flatten()]).reshape(img.shape)  # expect: AIP201/map
