# ruff: noqa
"""A frame grown with pd.concat one record at a time, from a list of dicts.

source: notebooks that collect API or scraping results (the replacement for the removed
        DataFrame.append: df = pd.concat([df, pd.DataFrame([record])], ignore_index=True))
family: growing
kind: slow
verdict: AIP907
rewrite: yes: pd.DataFrame(records) once
size: 1,500 records
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(62)
records = [{"id": i, "score": float(r.random()), "city": str(r.choice(["Lyon", "Porto", "Graz"]))}
           for i in range(1_500)]
# %% cell
df = pd.DataFrame()
for rec in records:
    df = pd.concat([df, pd.DataFrame([rec])], ignore_index=True)  # expect: AIP203
