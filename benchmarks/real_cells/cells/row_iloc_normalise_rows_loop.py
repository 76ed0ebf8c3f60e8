# ruff: noqa
"""Counts turned into proportions row by row: df.iloc[i] = df.iloc[i] / df.iloc[i].sum().

source: ecology and microbiome notebooks converting an OTU count table to relative abundances
        (and text notebooks turning term counts per document into frequencies) with a loop over
        range(len(df)) and iloc row reads and writes, before df.div(df.sum(axis=1), axis=0)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: abundance = counts.div(counts.sum(axis=1), axis=0) (the same proportions)
size: 3,000 samples x 150 taxa
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(204)
counts = pd.DataFrame(rng.negative_binomial(2, 0.05, (3_000, 150)).astype(float) + 1,
                      index=[f"sample_{i}" for i in range(3_000)], columns=[f"otu_{j}" for j in range(150)])
# %% cell
abundance = counts.copy()
for i in range(len(abundance)):  # expect: AIP301
    abundance.iloc[i] = abundance.iloc[i] / abundance.iloc[i].sum()  # expect: AIP301
top_taxa = abundance.mean().nlargest(10)
