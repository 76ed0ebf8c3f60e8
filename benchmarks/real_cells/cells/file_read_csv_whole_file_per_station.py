# ruff: noqa
"""Annual means per weather station through a load_station() helper of an earlier cell that reads the whole CSV with pd.read_csv and keeps one station's rows: the file is parsed again for every station.

source: weather and air-quality notebooks over one long CSV of many stations (a helper written for
        one station, def load_station(sid): df = pd.read_csv(PATH, parse_dates=["date"]); return
        df[df["station"] == sid], later called in a loop over all station ids), then a table of
        yearly means
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: read the file once (readings = pd.read_csv(csv_path, parse_dates=["date"])) and group it (readings.groupby(["station", readings["date"].dt.year])["pm25"].mean().unstack()): the same table
size: a CSV of 60,000 daily readings from 30 stations (1.8 MB), read 30 times
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(613)
stations = [f"ST{k:03d}" for k in range(30)]
days = pd.date_range("2019-01-01", periods=2_000, freq="D")
frame = pd.DataFrame({
    "station": np.repeat(stations, len(days)),
    "date": np.tile(days, len(stations)),
    "pm25": rng.gamma(2.5, 7.0, len(stations) * len(days)).round(1),
    "temp": rng.normal(12, 8, len(stations) * len(days)).round(1),
    "humidity": rng.integers(20, 100, len(stations) * len(days)),
})
csv_path = temp_dir() / "air_quality.csv"
frame.sample(frac=1.0, random_state=613).to_csv(csv_path, index=False)
del frame


def load_station(station_id):
    df = pd.read_csv(csv_path, parse_dates=["date"])
    return df[df["station"] == station_id].sort_values("date")
# %% cell
yearly = {}
for sid in stations:  # expect: AIP105
    readings = load_station(sid)  # expect: AIP105
    yearly[sid] = readings.groupby(readings["date"].dt.year)["pm25"].mean()
table = pd.DataFrame(yearly).T.round(1)
