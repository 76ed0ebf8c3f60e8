# ruff: noqa
"""Timestamps parsed from strings with Series.apply of datetime.strptime, then counted by hour.

source: time-series and log notebooks (bike-share trips, web logs):
        df["start"] = df["start_time"].apply(lambda s: datetime.strptime(s, "%Y-%m-%d %H:%M:%S")),
        then .dt.hour or a groupby on the hour, before pd.to_datetime(..., format=...)
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: pd.to_datetime(trips["start_time"], format="%Y-%m-%d %H:%M:%S") (the same timestamps)
size: 120,000 trips
scaled: no
kernel: data
"""
# %% setup
from datetime import datetime

import numpy as np
import pandas as pd

rng = np.random.default_rng(126)
seconds = rng.integers(0, 365 * 24 * 3600, 120_000)
stamps = pd.Timestamp("2019-01-01") + pd.to_timedelta(np.sort(seconds), unit="s")
trips = pd.DataFrame({"start_time": stamps.strftime("%Y-%m-%d %H:%M:%S"),
                      "duration": rng.gamma(2.0, 400.0, len(stamps)).round()})
# %% cell
trips["start"] = trips["start_time"].apply(lambda s: datetime.strptime(s, "%Y-%m-%d %H:%M:%S"))  # expect: *
by_hour = trips.groupby(trips["start"].dt.hour)["duration"].median()
