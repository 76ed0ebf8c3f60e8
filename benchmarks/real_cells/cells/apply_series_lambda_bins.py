# ruff: noqa
"""Series.apply with a nested conditional-expression lambda to band a numeric column.

source: Titanic notebooks on Kaggle band Fare into four groups; here the same lambda on a taxi
        EDA's fare column
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: pd.cut or np.select on the column
size: 1,000,000 fares
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import taxi

train = taxi(1_000_000, seed=24)
# %% cell
train["fare_band"] = train["fare_amount"].apply(lambda x: 0 if x <= 7.91 else (1 if x <= 14.45 else (2 if x <= 31 else 3)))  # expect: AIP302 ok: AIP303
