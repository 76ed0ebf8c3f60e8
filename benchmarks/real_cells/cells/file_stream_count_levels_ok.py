# ruff: noqa
"""Streaming a log file line by line and counting levels with a Counter.

source: the seed article, chapter 2.5's generator advice (iterate the file, keep nothing per line),
        as log-analysis notebooks apply it
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: one pass, constant memory
size: 400,000 lines
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import temp_dir, write_log

log_path = write_log(temp_dir() / "server.log", 400_000, seed=94)
# %% cell
levels = Counter()
with open(log_path) as fh:
    for line in fh:
        levels[line.split(" ", 3)[2]] += 1
