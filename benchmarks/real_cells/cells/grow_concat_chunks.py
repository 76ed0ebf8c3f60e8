# ruff: noqa
"""A large CSV read in chunks, each chunk concatenated onto the frame so far.

source: notebooks reading big CSVs with chunksize (Kaggle kernels on files that do not fit at once
        often do df = pd.concat([df, chunk]) per chunk)
family: growing
kind: slow
verdict: AIP907
rewrite: yes: pd.concat(list_of_chunks) once (or one read_csv)
size: 300,000 lines in 300 chunks of 1,000
scaled: no
kernel: data
unsure: parsing is part of the time whatever the rewrite; the growth is what grows with the chunk count
"""
# %% setup
import pandas as pd
from cell_data import temp_dir, write_csv

csv_path = write_csv(temp_dir() / "readings.csv", 300_000)
# %% cell
df = pd.DataFrame()
for chunk in pd.read_csv(csv_path, chunksize=1000):
    df = pd.concat([df, chunk])  # expect: AIP203 ok: AIP303
