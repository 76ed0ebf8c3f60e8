# ruff: noqa
"""A spatial join done by hand: each rental listing matched to its nearest metro station with two nested loops calling a math-module haversine function on every listing-station pair.

source: Airbnb and real-estate price notebooks that add "distance to the nearest station" as a
        feature (def haversine(lat1, lon1, lat2, lon2): ... math.radians, math.sin, math.asin;
        for i in range(len(listings)): for j in range(len(stations)): d = haversine(...); keep
        the smallest), before a broadcast distance matrix or a BallTree
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the haversine written with NumPy on radians arrays broadcast to a (listings x stations) matrix, then argmin and min along axis 1 (the same stations; distances equal within 1e-9 km)
size: 2,500 listings against 300 stations (750,000 pairs)
scaled: yes: Inside Airbnb's Paris file has about 80,000 listings; a district of it
kernel: data
"""
# %% setup
import math

import numpy as np
import pandas as pd

rng = np.random.default_rng(712)
listings = pd.DataFrame({"id": np.arange(2_500), "latitude": rng.uniform(48.815, 48.902, 2_500),
                         "longitude": rng.uniform(2.25, 2.42, 2_500), "price": rng.gamma(3.0, 50.0, 2_500).round()})
stations = pd.DataFrame({"name": [f"station {k}" for k in range(300)], "lat": rng.uniform(48.81, 48.905, 300),
                         "lon": rng.uniform(2.24, 2.43, 300)})


def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = map(math.radians, (lat1, lon1, lat2, lon2))
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(a))
# %% cell
lat_l, lon_l = listings["latitude"].to_numpy(), listings["longitude"].to_numpy()
lat_s, lon_s = stations["lat"].to_numpy(), stations["lon"].to_numpy()
nearest, dist_km = [], []
for i in range(len(lat_l)):  # expect: AIP201
    best, best_d = -1, float("inf")
    for j in range(len(lat_s)):  # expect: AIP201
        d = haversine(lat_l[i], lon_l[i], lat_s[j], lon_s[j])  # expect: AIP201
        if d < best_d:
            best, best_d = j, d
    nearest.append(best)
    dist_km.append(best_d)
listings["station"] = stations["name"].to_numpy()[nearest]
listings["station_km"] = dist_km
