# ruff: noqa
"""The np.select rewrite of a row-wise if/elif ladder, on a million survey rows.

source: the accepted answers to the row-wise labelling question (np.select with a list of
        conditions and choices)
family: row-apply
kind: healthy
verdict: AIP907|none
rewrite: no: already vectorised
size: 1,000,000 survey rows
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import census

df = census(1_000_000, seed=28)
# %% cell
others = df[["eri_afr_amer", "eri_asian", "eri_hawaiian", "eri_nat_amer", "eri_white"]].sum(axis=1)
conditions = [df["eri_hispanic"] == 1, others > 1, df["eri_nat_amer"] == 1, df["eri_asian"] == 1,
              df["eri_afr_amer"] == 1, df["eri_hawaiian"] == 1, df["eri_white"] == 1]
choices = ["Hispanic", "Two Or More", "A/I AK Native", "Asian", "Black/AA", "Haw/Pac Isl.", "White"]
df["race_label"] = np.select(conditions, choices, default="Other")  # ok: AIP303
