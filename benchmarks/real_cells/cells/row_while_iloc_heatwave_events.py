# ruff: noqa
"""Heatwaves found in a century of daily maximum temperatures with two while loops over positions: daily.iloc[i]["tmax"] builds a row Series at every step of the scan.

source: climate-data notebooks on station records (GHCN-Daily, the Met Office and Berkeley Earth
        series) that detect heatwaves as runs of at least three days above a threshold with a
        hand-written scan (i = 0; while i < len(df): if df.iloc[i]["TMAX"] > thr: j = i; while j <
        len(df) and df.iloc[j]["TMAX"] > thr: j += 1 ...), then count events per decade
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: hot = daily["tmax"] > threshold; run_id = (hot != hot.shift()).cumsum(); runs = daily[hot].groupby(run_id[hot]).agg(start=("date", "first"), end=("date", "last"), length=("tmax", "size"), peak=("tmax", "max")); the runs of 3 days or more (the same events)
size: 36,500 days (1925-2024) of one station
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(604)
dates = pd.date_range("1925-01-01", periods=36_500, freq="D")
doy = dates.day_of_year.to_numpy()
trend = np.linspace(0.0, 1.4, len(dates))
anomaly = np.zeros(len(dates))
for t in range(1, len(dates)):
    anomaly[t] = 0.7 * anomaly[t - 1] + rng.normal(0, 2.2)
daily = pd.DataFrame({
    "date": dates,
    "tmax": (17 + 9 * np.sin(2 * np.pi * (doy - 110) / 365.25) + trend + anomaly).round(1),
    "tmin": (8 + 7 * np.sin(2 * np.pi * (doy - 110) / 365.25) + trend + 0.6 * anomaly).round(1),
    "station": "GM000004204",
})
threshold = daily["tmax"].quantile(0.95)
# %% cell
events = []
i = 0
while i < len(daily):  # expect: AIP301
    if daily.iloc[i]["tmax"] > threshold:  # expect: AIP301
        j = i
        while j < len(daily) and daily.iloc[j]["tmax"] > threshold:  # expect: AIP301
            j += 1
        if j - i >= 3:
            events.append({"start": daily.iloc[i]["date"], "length": j - i,
                           "peak": daily["tmax"].iloc[i:j].max()})
        i = j
    else:
        i += 1
heatwaves = pd.DataFrame(events)
per_decade = heatwaves.groupby(heatwaves["start"].dt.year // 10 * 10).size()
