# ruff: noqa
"""range(len(df)) with df.iloc[i]["col"], several times per row, building a list for a new column.

source: the issue's example, in the shape Kaggle EDA notebooks write it (an index loop that reads
        a few columns of row i through iloc and appends a computed value)
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: np.where on the two columns, times the amount
size: 8,000 rows
scaled: no: "a few thousand rows", as the issue measured
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

all_data = sales(8_000, seed=11)
# %% cell
amounts = []
for i in range(len(all_data)):  # expect: AIP301
    if all_data.iloc[i]["qty"] > 2 and all_data.iloc[i]["price"] > 100:  # expect: AIP301
        amounts.append(all_data.iloc[i]["price"] * all_data.iloc[i]["qty"] * 0.9)  # expect: AIP301
    else:
        amounts.append(all_data.iloc[i]["price"] * all_data.iloc[i]["qty"])  # expect: AIP301
all_data["amount"] = amounts
