"""AIP304: read_csv of everything then select and cast vs usecols= and dtype= in the read."""

import os
import tempfile

import numpy as np
import pandas as pd
from _timing import compare, report

ROWS = 200_000
rng = np.random.default_rng(0)
fd, path = tempfile.mkstemp(suffix=".csv")
os.close(fd)
pd.DataFrame(
    {
        "user": rng.integers(0, 10_000, ROWS),
        "amount": rng.random(ROWS),
        "note": ["some free text"] * ROWS,
        "ts": ["2024-01-01 00:00:00"] * ROWS,
        "a": rng.random(ROWS),
        "b": rng.random(ROWS),
    }
).to_csv(path, index=False)


def read_then_cut() -> pd.DataFrame:
    df = pd.read_csv(path)
    df = df[["user", "amount"]]
    return df.astype({"user": "int32", "amount": "float32"})


def read_declared() -> pd.DataFrame:
    return pd.read_csv(path, usecols=["user", "amount"], dtype={"user": "int32", "amount": "float32"})


slow, fast = compare(read_then_cut, read_declared, repeat=3)
report("AIP304", f"{ROWS:,}-row CSV, keep 2 of 6 columns", "read all, cut, cast", "usecols+dtype", slow, fast)
os.remove(path)
