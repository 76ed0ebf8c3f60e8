# ruff: noqa
"""Gaps in a sensor's temperature column filled forward by hand: a range loop reads and writes the frame with .iat, each reading copied from the one before.

source: time-series cleaning notebooks for IoT and weather-station data that fill missing
        readings with the last valid one in a loop (col = df.columns.get_loc("temperature");
        for i in range(1, len(df)): if np.isnan(df.iat[i, col]): df.iat[i, col] = df.iat[i - 1,
        col]) before df["temperature"].ffill(), then daily means
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: readings["temperature"] = readings["temperature"].ffill() (the same column: a gap takes the last reading before it)
size: 150,000 readings at one a minute, about 8 % missing in runs
scaled: no
kernel: data
unsure: the loop carries each value to the next, but pandas has the whole operation built in (ffill);
        the access is .iat by position, which the catalog's description of AIP301 does not list by name
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(407)
n = 150_000
temperature = 12 + 6 * np.sin(np.arange(n) * 2 * np.pi / 1_440) + rng.normal(0, 0.4, n)
gap_starts = rng.choice(n, 1_200, replace=False)
for s in gap_starts:
    temperature[s:s + rng.integers(1, 20)] = np.nan
temperature[0] = 11.5
raw = pd.DataFrame({
    "timestamp": pd.date_range("2024-01-01", periods=n, freq="min"),
    "station": "ws-07",
    "temperature": temperature.round(2),
    "humidity": rng.uniform(40, 90, n).round(1),
})
# %% cell
readings = raw.copy()  # ok: AIP303
col = readings.columns.get_loc("temperature")
for i in range(1, len(readings)):  # expect: AIP301
    if np.isnan(readings.iat[i, col]):  # expect: AIP301
        readings.iat[i, col] = readings.iat[i - 1, col]  # expect: AIP301 ok: AIP303
daily = readings.groupby(readings["timestamp"].dt.date)["temperature"].mean()
