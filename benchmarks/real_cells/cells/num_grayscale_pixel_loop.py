# ruff: noqa
"""An RGB photo turned to grayscale pixel by pixel with the luma weights, in two index loops.

source: image-processing course notebooks and blog tutorials that write the conversion by hand
        before cv2.cvtColor or skimage.color.rgb2gray (for i in range(height): for j in
        range(width): r, g, b = img[i, j]; gray[i, j] = 0.299 * r + 0.587 * g + 0.114 * b)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: gray = img @ np.array([0.299, 0.587, 0.114]) (float64 either way: equal within 1e-9)
size: a 400 x 400 RGB image (uint8)
scaled: yes: the tutorials load a 512 x 512 test photo
kernel: data
"""
# %% setup
import numpy as np

img = np.random.default_rng(122).integers(0, 256, (400, 400, 3), dtype=np.uint8)
# %% cell
height, width, _ = img.shape
gray = np.zeros((height, width))
for i in range(height):  # expect: AIP201
    for j in range(width):  # expect: AIP201
        r, g, b = img[i, j]  # expect: AIP201
        gray[i, j] = 0.299 * r + 0.587 * g + 0.114 * b  # expect: AIP201
