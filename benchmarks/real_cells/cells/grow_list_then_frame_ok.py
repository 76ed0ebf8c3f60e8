# ruff: noqa
"""Records collected in a list and turned into a frame once; arrays joined once with np.concatenate.

source: the "use instead" of pandas and NumPy guides (pd.DataFrame(records), np.concatenate(parts))
family: growing
kind: healthy
verdict: none|AIP907
rewrite: no: built once
size: 150,000 records, 200 array parts of 5,000
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import rng

r = rng(64)
records = [{"id": i, "score": float(s)} for i, s in enumerate(r.random(150_000))]
parts_source = r.normal(size=(200, 5_000))
# %% cell
df = pd.DataFrame(records)
parts = []
for row in parts_source:
    parts.append(row * 0.5)
joined = np.concatenate(parts)
