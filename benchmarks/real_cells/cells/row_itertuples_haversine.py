# ruff: noqa
"""A trip-distance feature from itertuples and a math-module haversine, one trip at a time.

source: taxi-fare EDA notebooks on Kaggle (the New York City taxi fare competition): a haversine
        helper from an earlier cell, then a loop over the trips to build the distance column
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: the same formula with NumPy on the four coordinate columns
size: 200,000 trips
scaled: yes: the competition's train file has 55 million rows; notebooks load a few million; 200,000 here
kernel: data
"""
# %% setup
import math

import pandas as pd
from cell_data import taxi

train = taxi(200_000)


def haversine(lat1, lon1, lat2, lon2):
    r = 6371.0
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi = math.radians(lat2 - lat1)
    dlmb = math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))
# %% cell
distances = []
for trip in train.itertuples():  # expect: AIP301
    distances.append(haversine(trip.pickup_latitude, trip.pickup_longitude,  # expect: AIP301
                               trip.dropoff_latitude, trip.dropoff_longitude))
train["distance_km"] = distances  # ok: AIP303
