# ruff: noqa
"""Keeping the labelled images whose file exists: for each id of the labels table, os.listdir of the image folder and a `in` test on the listing, so the folder is listed again for every id.

source: Kaggle image-competition kernels that clean their labels CSV against the files on disk
        (for img_id in df["id"]: if f"{img_id}.png" in os.listdir(IMG_DIR): keep.append(img_id)),
        before listing the folder once into a set
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: present = set(os.listdir(image_dir)) once before the loop (or labels[labels["id"].map(lambda i: f"{i}.png").isin(present)]): the same ids
size: 1,200 ids against a folder of 1,000 files
scaled: yes: the competitions have tens of thousands of images
kernel: data
unsure: two costs on one line: the folder is listed again per id (a directory read repeated in a loop, like AIP105) and the listing is scanned as a list (AIP202); any code on these lines is accepted
"""
# %% setup
import os

import numpy as np
import pandas as pd

from cell_data import temp_dir

rng = np.random.default_rng(730)
image_dir = temp_dir()
all_ids = rng.choice(1_000_000, 1_200, replace=False)
for img_id in all_ids[:1_000]:
    (image_dir / f"{img_id}.png").write_bytes(b"\x89PNG\r\n")
labels = pd.DataFrame({"id": rng.permutation(all_ids), "label": rng.integers(0, 5, 1_200)})
# %% cell
keep = []
for img_id in labels["id"]:  # expect: *
    if f"{img_id}.png" in os.listdir(image_dir):  # expect: *
        keep.append(img_id)
labels_present = labels[labels["id"].isin(keep)]
