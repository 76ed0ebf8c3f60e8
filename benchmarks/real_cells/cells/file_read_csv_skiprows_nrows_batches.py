# ruff: noqa
"""Training batches read from a CSV with pd.read_csv(path, skiprows=range(1, start + 1), nrows=batch_size): every batch parses the file again from its start.

source: Keras and PyTorch notebooks with a hand-written batch generator for data "too large for
        memory" (for start in range(0, n_rows, batch_size): batch = pd.read_csv(path,
        skiprows=range(1, start + 1), nrows=batch_size); yield features and labels), consumed
        here by running feature statistics for a scaler
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: for batch in pd.read_csv(path, chunksize=batch_size): the same batches in one pass over the file
size: 60,000 rows of 10 columns (6.3 MB), batches of 2,000 (30 reads)
scaled: no
kernel: data
unsure: each read keeps different rows; what repeats is the parse of every row before them (the
        same file opened and read again, the path fixed); AIP105 names a file read again per call
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(413)
n_rows = 60_000
feature_cols = [f"f{i}" for i in range(9)]
frame = pd.DataFrame(rng.normal(0, 1, (n_rows, 9)).round(5), columns=feature_cols)
frame["label"] = rng.integers(0, 2, n_rows)
csv_path = temp_dir() / "train.csv"
frame.to_csv(csv_path, index=False)
del frame
# %% cell
def csv_batches(path, batch_size, n_rows):
    for start in range(0, n_rows, batch_size):  # expect: AIP105
        batch = pd.read_csv(path, skiprows=range(1, start + 1), nrows=batch_size)  # expect: AIP105
        yield batch[feature_cols].to_numpy(), batch["label"].to_numpy()


total = np.zeros(len(feature_cols))
total_sq = np.zeros(len(feature_cols))
count = 0
for X, y in csv_batches(csv_path, 2_000, n_rows):  # expect: AIP105
    total += X.sum(axis=0)
    total_sq += (X ** 2).sum(axis=0)
    count += len(X)
mean = total / count
std = np.sqrt(total_sq / count - mean ** 2)
