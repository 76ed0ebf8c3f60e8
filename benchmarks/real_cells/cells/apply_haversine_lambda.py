# ruff: noqa
"""apply(axis=1) with a lambda calling a math-module haversine from an earlier cell.

source: the PyCon talk "A Beginner's Guide to Optimizing Pandas Code for Speed" (hotel distances:
        df.apply(lambda row: haversine(40.671, -73.985, row['latitude'], row['longitude']), axis=1))
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: the haversine formula with NumPy on the columns
size: 80,000 trips
scaled: no: the talk's frame had 1,631 hotels; a taxi EDA's frame is this size or larger
kernel: data
"""
# %% setup
import math

import pandas as pd
from cell_data import taxi

df = taxi(80_000, seed=27).rename(columns={"pickup_latitude": "latitude", "pickup_longitude": "longitude"})


def haversine(lat1, lon1, lat2, lon2):
    miles_constant = 3959
    lat1, lon1, lat2, lon2 = map(math.radians, [lat1, lon1, lat2, lon2])
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return miles_constant * 2 * math.asin(math.sqrt(a))
# %% cell
df["distance"] = df.apply(lambda row: haversine(40.671, -73.985, row["latitude"], row["longitude"]), axis=1)  # expect: AIP302
