# ruff: noqa
"""A feature-engineering helper from an earlier cell that loops with iterrows and .loc, called here.

source: Titanic notebooks on Kaggle (family size and "is alone" features computed per passenger,
        on train and test combined: 1,309 passengers)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: two column expressions (SibSp + Parch + 1, and a comparison with 0)
size: 1,309 passengers
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import titanic

full = titanic(1309)


def add_features(frame):
    out = frame.copy()
    for idx, row in out.iterrows():
        out.loc[idx, "FamilySize"] = row["SibSp"] + row["Parch"] + 1
        out.loc[idx, "IsAlone"] = 1 if row["SibSp"] + row["Parch"] == 0 else 0
    return out
# %% cell
full = add_features(full)  # expect: AIP301
full[["FamilySize", "IsAlone", "Survived"]].groupby("FamilySize").mean()
