# ruff: noqa
"""A holiday flag for daily store sales: each row's date looked up with `in` a list of holiday dates taken from the holidays-events table, in a list comprehension over the date column.

source: store-sales forecasting kernels (Kaggle's Favorita "Store Sales - Time Series Forecasting"
        and Rossmann: holiday_list = list(holidays["date"].dt.date); train["is_holiday"] =
        [d in holiday_list for d in train["date"].dt.date]), before isin or a set
family: membership
kind: slow
verdict: AIP907
rewrite: yes: holiday_set = set(holiday_list) in the same comprehension, or train["date"].isin(holidays["date"]) (the same flags)
size: 60,000 store-days against 1,400 holiday-event rows (local, regional and national, duplicates kept)
scaled: yes: the Favorita train set has 3,000,888 rows; 60,000 of them
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(709)
days = pd.date_range("2013-01-01", "2017-08-15", freq="D")
holidays = pd.DataFrame({
    "date": np.sort(rng.choice(days, 1_400)),
    "type": rng.choice(["Holiday", "Event", "Additional", "Transfer", "Bridge"], 1_400),
    "locale": rng.choice(["Local", "Regional", "National"], 1_400, p=[0.5, 0.2, 0.3]),
})
train = pd.DataFrame({
    "date": rng.choice(days, 60_000),
    "store_nbr": rng.integers(1, 55, 60_000),
    "sales": rng.gamma(2.0, 200.0, 60_000).round(1),
})
# %% cell
holiday_list = list(holidays["date"].dt.date)
train["is_holiday"] = [d in holiday_list for d in train["date"].dt.date]  # expect: AIP202
holiday_lift = train.groupby("is_holiday")["sales"].mean()
