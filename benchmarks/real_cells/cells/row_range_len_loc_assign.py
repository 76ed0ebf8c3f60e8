# ruff: noqa
"""range(len(df)) computing a BMI column cell by cell with .loc reads and a .loc write.

source: health-data EDA notebooks on Kaggle (obesity and heart-disease sets: weight and height
        columns, a BMI feature written row by row)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: df["bmi"] = df["weight"] / (df["height"] / 100) ** 2
size: 3,000 patients
scaled: no: these data sets have a few thousand rows
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(12)
df = pd.DataFrame({"height": r.normal(170, 10, 3000).round(1), "weight": r.normal(75, 14, 3000).round(1),
                   "age": r.integers(18, 90, 3000)})
# %% cell
for i in range(len(df)):  # expect: AIP301
    df.loc[i, "bmi"] = df.loc[i, "weight"] / (df.loc[i, "height"] / 100) ** 2  # expect: AIP301
