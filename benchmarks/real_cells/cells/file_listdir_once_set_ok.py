# ruff: noqa
"""Keeping the labelled images whose file exists: the image folder listed once into a set of ids, the labels filtered with isin.

source: Kaggle image-competition kernels that clean their labels CSV against the files on disk
        (present = {os.path.splitext(f)[0] for f in os.listdir(IMG_DIR)}; df =
        df[df["id"].astype(str).isin(present)])
family: file-read
kind: healthy
verdict: none|AIP907
rewrite: no: one directory listing and one hashed isin
size: 400,000 label rows against a folder of 5,000 files
scaled: no
kernel: data
"""
# %% setup
import os

import numpy as np
import pandas as pd

from cell_data import temp_dir

rng = np.random.default_rng(731)
image_dir = temp_dir()
all_ids = rng.choice(1_000_000, 8_000, replace=False)
for img_id in all_ids[:5_000]:
    (image_dir / f"{img_id}.png").write_bytes(b"\x89PNG\r\n")
labels = pd.DataFrame({"id": rng.choice(all_ids, 400_000), "label": rng.integers(0, 5, 400_000)})
# %% cell
present = {int(os.path.splitext(name)[0]) for name in os.listdir(image_dir)}
labels_present = labels[labels["id"].isin(present)]
per_label = labels_present["label"].value_counts()
