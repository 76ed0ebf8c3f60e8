# ruff: noqa
"""Lag and rolling features for a forecasting model built sensor by sensor: each sensor's rows filtered out of the whole frame with a boolean mask, six .shift(lag) columns and a rolling mean added, the pieces concatenated.

source: time-series forecasting notebooks on IoT and energy-meter data (Kaggle's ASHRAE and
        sensor-forecasting kernels: for sid in df["sensor_id"].unique(): g = df[df["sensor_id"] ==
        sid].sort_values("ts"); for lag in lags: g[f"lag_{lag}"] = g["value"].shift(lag); ...;
        parts.append(g); features = pd.concat(parts)), before groupby(...).shift
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: the frame sorted by sensor and time once; gb = df.groupby("sensor_id")["value"]; df[f"lag_{lag}"] = gb.shift(lag) for each lag, df["roll_mean_24"] = gb.transform(lambda s: s.rolling(24).mean()), df["diff_1"] = gb.diff() (the same rows and values, in sensor order)
size: 600,000 hourly readings of 300 sensors (2,000 hours each)
scaled: yes: the ASHRAE set has 20 million meter readings of 1,449 buildings; 300 sensors of it
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(703)
n_sensors, n_hours = 300, 2_000
ts = pd.date_range("2024-01-01", periods=n_hours, freq="h")
base = rng.uniform(10, 80, n_sensors)
hour = np.arange(n_hours) % 24
values = base[:, None] + 8 * np.sin(2 * np.pi * hour / 24)[None, :] + rng.normal(0, 2, (n_sensors, n_hours))
readings = pd.DataFrame({
    "ts": np.tile(ts, n_sensors),
    "sensor_id": np.repeat(np.arange(n_sensors) + 1_000, n_hours),
    "value": values.ravel().round(2),
}).sort_values(["ts", "sensor_id"], ignore_index=True)
lags = (1, 2, 3, 6, 12, 24)
# %% cell
parts = []
for sensor_id in readings["sensor_id"].unique():  # expect: *
    g = readings[readings["sensor_id"] == sensor_id].sort_values("ts")  # expect: *
    for lag in lags:  # expect: *
        g[f"lag_{lag}"] = g["value"].shift(lag)  # expect: *
    g["roll_mean_24"] = g["value"].rolling(24).mean()  # expect: *
    g["diff_1"] = g["value"].diff()  # expect: *
    parts.append(g)
features = pd.concat(parts, ignore_index=True).dropna()
