# ruff: noqa
"""Date features taken with Series.apply(lambda x: x.hour) and friends on a datetime column, one Timestamp per row.

source: Kaggle notebooks of the NYC Taxi Trip Duration and Bike Sharing Demand competitions
        (train["hour"] = train["pickup_datetime"].apply(lambda x: x.hour); the same for the
        weekday and the month), before the .dt accessor
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: trips["pickup_datetime"].dt.hour, .dt.weekday and .dt.month (the same integers)
size: 120,000 trips
scaled: yes: the taxi competition's train set has 1,458,644 trips
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(312)
n = 120_000
start = np.datetime64("2016-01-01T00:00:00")
trips = pd.DataFrame({
    "id": [f"id{i:07d}" for i in range(n)],
    "pickup_datetime": start + rng.integers(0, 182 * 24 * 3600, n).astype("timedelta64[s]"),
    "trip_duration": rng.lognormal(6.5, 0.8, n).astype(int),
})
# %% cell
trips["hour"] = trips["pickup_datetime"].apply(lambda x: x.hour)  # expect: AIP302/hour ok: AIP303
trips["weekday"] = trips["pickup_datetime"].apply(lambda x: x.weekday())  # expect: AIP302/weekday ok: AIP303
trips["month"] = trips["pickup_datetime"].apply(lambda x: x.month)  # expect: AIP302/month ok: AIP303
by_hour = trips.groupby("hour")["trip_duration"].median()
