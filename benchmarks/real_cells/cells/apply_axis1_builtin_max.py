# ruff: noqa
"""df.apply(max, axis=1) over four quarterly columns: the frame's own max(axis=1) does it.

source: sales-report notebooks (best quarter per store), a shape pandas courses show before
        introducing axis-wise methods
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: df[quarters].max(axis=1)
size: 120,000 stores
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(26)
quarters = ["q1", "q2", "q3", "q4"]
df = pd.DataFrame({q: r.gamma(3.0, 1000.0, 120_000).round(2) for q in quarters})
# %% cell
df["best_quarter"] = df[quarters].apply(max, axis=1)  # expect: AIP302
