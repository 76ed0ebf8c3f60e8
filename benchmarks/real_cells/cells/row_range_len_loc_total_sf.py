# ruff: noqa
"""A new column summed row by row with df.loc[i, col] reads and a df.loc[i, col] write.

source: Kaggle House Prices notebooks (feature engineering on train and test concatenated:
        TotalSF = TotalBsmtSF + 1stFlrSF + 2ndFlrSF), written as a range(len(df)) loop with
        .loc, as beginners' kernels do
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: all_data["TotalSF"] = all_data["TotalBsmtSF"] + all_data["1stFlrSF"] + all_data["2ndFlrSF"]
size: 2,919 houses (1,460 train + 1,459 test), 80 columns
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(2919)
n = 2919
all_data = pd.DataFrame({f"feat{k}": rng.normal(size=n) for k in range(74)})
all_data["TotalBsmtSF"] = rng.integers(0, 3000, n).astype(float)
all_data["1stFlrSF"] = rng.integers(400, 2500, n)
all_data["2ndFlrSF"] = rng.integers(0, 1800, n)
all_data["MSZoning"] = rng.choice(["RL", "RM", "FV", "RH"], n)
all_data["YearBuilt"] = rng.integers(1880, 2010, n)
all_data["SalePrice"] = rng.lognormal(12, 0.4, n)
all_data["TotalSF"] = 0.0
# %% cell
for i in range(len(all_data)):  # expect: AIP301
    all_data.loc[i, "TotalSF"] = (all_data.loc[i, "TotalBsmtSF"] + all_data.loc[i, "1stFlrSF"]  # expect: AIP301
                                  + all_data.loc[i, "2ndFlrSF"])  # expect: AIP301
