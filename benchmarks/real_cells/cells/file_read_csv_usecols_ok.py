# ruff: noqa
"""pd.read_csv with usecols and dtype, then a groupby: the read says what it keeps.

source: pandas's "Scaling to large datasets" guide and AIP304's "use instead" (usecols=, dtype=)
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: already reads only what it needs
size: 300,000 lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import temp_dir, write_csv

csv_path = write_csv(temp_dir() / "readings.csv", 300_000, seed=95)
# %% cell
readings = pd.read_csv(csv_path, usecols=["sensor", "value"], dtype={"sensor": "int16", "value": "float32"})
per_sensor = readings.groupby("sensor")["value"].agg(["mean", "std", "count"])
