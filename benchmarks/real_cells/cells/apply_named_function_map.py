# ruff: noqa
"""Series.map with an arithmetic function from an earlier cell (Fahrenheit to Celsius).

source: pandas courses' map/apply lesson on weather data (jvns/pandas-cookbook's weather chapter
        works on hourly temperatures)
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: (weather["temp_f"] - 32) * 5 / 9
size: 1,000,000 hourly readings
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

weather = pd.DataFrame({"temp_f": rng(25).normal(50, 18, 1_000_000).round(1)})


def to_celsius(f):
    return (f - 32) * 5 / 9
# %% cell
weather["temp_c"] = weather["temp_f"].map(to_celsius)  # expect: AIP302 ok: AIP303
