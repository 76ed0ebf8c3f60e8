# ruff: noqa
"""A column filled by calling a web API for each row inside Series.apply (one request after another).

source: notebooks that enrich a DataFrame from a web service row by row: geocoding addresses
        (df["location"] = df["address"].apply(geocode)), looking up each id in a REST API with
        df["id"].apply(lambda i: requests.get(f"{url}/{i}").json()[...])
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: a thread pool mapping the same lookup over the ids, then assigned as the column
size: 60 rows, 10 ms latency per request
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
stations = pd.DataFrame({"station_id": [f"st{i:03d}" for i in range(60)], "city": ["Lyon"] * 60})
# %% cell
stations["bikes"] = stations["station_id"].apply(  # expect: AIP402
    lambda sid: requests.get(f"{base}/station/{sid}", timeout=10).json()["value"])  # expect: AIP402
busiest = stations.nlargest(5, "bikes")
# %% teardown
server.kill()
