# ruff: noqa
"""Per-image statistics from an .npz data set indexed as data["images"][i] in a loop: every access reads and decodes the whole array out of the archive again.

source: notebooks that load a data set saved with np.savez (Keras's mnist.npz and course data
        files: data = np.load("mnist.npz"); for i in range(n): img = data["x_train"][i]) to look at
        or preprocess samples one by one, not knowing that np.load's NpzFile reads an array
        from the archive each time it is asked for it
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: images, labels = data["images"], data["labels"] once before the loop (the same arrays)
size: 6,000 images of 28 x 28 (a 4.7 MB array), 250 samples looked at
scaled: no
kernel: data
unsure: the archive is opened once by np.load; each data[key] reads its member again (NpzFile reads
        lazily), a file read per step hidden in an indexing; AIP105 names a file read again in a loop
"""
# %% setup
import numpy as np
from cell_data import images, temp_dir

pixels, digit = images(6_000, seed=521)
npz_path = temp_dir() / "mnist_subset.npz"
np.savez(npz_path, images=pixels, labels=digit)
data = np.load(npz_path)
# %% cell
stats = []
for i in range(250):  # expect: AIP105
    img = data["images"][i]  # expect: AIP105
    label = data["labels"][i]  # expect: AIP105
    stats.append((int(label), img.mean(), img.std(), (img > 128).mean()))
mean_ink_by_digit = {d: np.mean([s[3] for s in stats if s[0] == d]) for d in range(10)}
