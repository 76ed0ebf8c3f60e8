# ruff: noqa
"""Twelve monthly CSV files read and concatenated onto one frame in a loop.

source: the monthly sales analysis exercise of KeithGalli/pandas (all_months_data =
        pd.concat([all_months_data, df]) for each of 12 files)
family: growing
kind: healthy
verdict: AIP907|none
rewrite: no: twelve concatenations copy a small share of what the reads cost
size: 12 files of 15,000 lines
scaled: no
kernel: data
unsure: a growing frame, but twelve steps; the fix is still tidier, so AIP203 is accepted, not required
"""
# %% setup
import pandas as pd
from cell_data import temp_dir, write_csv

folder = temp_dir()
files = [write_csv(folder / f"Sales_{m:02d}_2019.csv", 15_000, seed=m) for m in range(1, 13)]
# %% cell
all_months_data = pd.DataFrame()
for file in files:
    df = pd.read_csv(file)
    all_months_data = pd.concat([all_months_data, df])  # ok: AIP203 AIP303
