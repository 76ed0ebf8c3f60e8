# ruff: noqa
"""A row function with an if/elif ladder over several 0/1 columns, applied with axis=1.

source: the well-known question "create new column based on values from other columns / apply a
        function of multiple columns, row-wise" (label_race over eri_* flags), as notebooks copy it
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: np.select over the same conditions
size: 30,000 survey rows
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import census

df = census(30_000)
# %% cell
def label_race(row):
    if row["eri_hispanic"] == 1:
        return "Hispanic"
    if row["eri_afr_amer"] + row["eri_asian"] + row["eri_hawaiian"] + row["eri_nat_amer"] + row["eri_white"] > 1:
        return "Two Or More"
    if row["eri_nat_amer"] == 1:
        return "A/I AK Native"
    if row["eri_asian"] == 1:
        return "Asian"
    if row["eri_afr_amer"] == 1:
        return "Black/AA"
    if row["eri_hawaiian"] == 1:
        return "Haw/Pac Isl."
    if row["eri_white"] == 1:
        return "White"
    return "Other"


df["race_label"] = df.apply(label_race, axis=1)  # expect: AIP302
