# ruff: noqa
"""for i in df.index with df["col"][i] chained lookups, counting flagged transactions.

source: credit-card fraud EDA notebooks on Kaggle (a loop over the index reading df['Amount'][i]
        and df['Class'][i])
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: ((df["Amount"] > 200) & (df["Class"] == 1)).sum()
size: 50,000 transactions
scaled: yes: the data set has 284,807 rows
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import rng

r = rng(14)
n = 50_000
df = pd.DataFrame({"Time": np.arange(n), "Amount": r.gamma(1.2, 80.0, n).round(2),
                   "Class": (r.random(n) < 0.0017).astype(np.int64)})
# %% cell
flagged = 0
for i in df.index:  # expect: AIP301
    if df["Amount"][i] > 200 and df["Class"][i] == 1:  # expect: AIP301
        flagged += 1
print(flagged)
