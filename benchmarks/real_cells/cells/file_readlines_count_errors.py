# ruff: noqa
"""Counting error lines of a server log through .readlines(): the whole file held as a list first.

source: log-analysis notebooks and scripts (for line in open(path).readlines(): ... count), the
        shape AIP104's documentation quotes
family: file-read
kind: slow
verdict: AIP907|none
rewrite: yes: iterate the file object itself (for line in fh)
size: 400,000 lines (about 25 MB)
scaled: no
kernel: data
unsure: mostly a memory trap (the list of lines); the time saved is small
"""
# %% setup
from cell_data import temp_dir, write_log

log_path = write_log(temp_dir() / "server.log", 400_000)
# %% cell
errors = 0
with open(log_path) as fh:
    for line in fh.readlines():  # expect: AIP104
        if " ERROR " in line:
            errors += 1
