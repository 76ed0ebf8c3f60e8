# ruff: noqa
"""groupby().transform("mean") and a ratio column on two million rows: no Python per row.

source: pandas courses' groupby lesson (TomAugspurger/effective-pandas and Modern pandas use
        transform to broadcast group statistics back to rows)
family: row-apply
kind: healthy
verdict: AIP907|none
rewrite: no: already vectorised
size: 2,000,000 order lines
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import sales

all_data = sales(2_000_000, seed=30)
all_data["amount"] = all_data["price"] * all_data["qty"]
# %% cell
all_data["city_mean"] = all_data.groupby("city")["amount"].transform("mean")  # ok: AIP303
all_data["vs_city"] = all_data["amount"] / all_data["city_mean"]  # ok: AIP303
