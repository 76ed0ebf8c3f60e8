# ruff: noqa
"""Parsed log entries appended as rows with df.loc[len(df)] = [...].

source: log-analysis notebooks building a frame row by row with loc at the next index
family: growing
kind: slow
verdict: AIP907
rewrite: yes: collect the parsed rows in a list, then pd.DataFrame(rows, columns=...)
size: 1,200 log lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd

lines = [f"2024-03-{1 + i % 28:02d} worker-{i % 8} {'ERROR' if i % 31 == 0 else 'INFO'} took {(i * 37) % 997} ms"
         for i in range(1_200)]
# %% cell
log = pd.DataFrame(columns=["date", "worker", "level", "ms"])
for line in lines:
    date, worker, level, _, ms, _ = line.split()
    log.loc[len(log)] = [date, worker, level, int(ms)]  # expect: AIP203
