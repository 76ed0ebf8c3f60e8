# ruff: noqa
"""A CSV parsed by hand, line by line with split(","), into tuples, then a DataFrame.

source: beginner data notebooks that read a file line by line "to learn" before pandas, then keep
        the habit (the seed article's chapter 2.5 reads line by line too)
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: pd.read_csv(csv_path, usecols=[...], dtype=...)
size: 300,000 lines
scaled: no
kernel: data
unsure: no rule of the catalog names a hand-written parser; any code on these lines is accepted
"""
# %% setup
import pandas as pd
from cell_data import temp_dir, write_csv

csv_path = write_csv(temp_dir() / "readings.csv", 300_000, seed=92)
# %% cell
rows = []
with open(csv_path) as fh:
    next(fh)
    for line in fh:  # expect: *
        fields = line.rstrip("\n").split(",")  # expect: *
        rows.append((int(fields[0]), int(fields[1]), float(fields[2]), fields[3] == "True"))  # expect: *
readings = pd.DataFrame(rows, columns=["id", "sensor", "value", "flag"])
