# ruff: noqa
"""Orders pulled through a generator of an earlier cell that requests one record per id and yields it: the for loop waits for each response in turn.

source: ETL notebooks and scripts that wrap an API in a generator (def iter_orders(ids): for
        order_id in ids: resp = requests.get(f"{base}/orders/{order_id}"); resp.raise_for_status();
        yield resp.json()) and consume it in a loop that keeps a few fields, the ids known
        beforehand; against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: a thread pool mapping the request over the ids (pool.map keeps their order): the same records, the waits overlapped
size: 50 requests of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)
order_ids = list(range(7_100, 7_150))


def iter_orders(ids):
    for order_id in ids:
        resp = requests.get(f"{base}/item/{order_id}", timeout=10)
        resp.raise_for_status()
        yield resp.json()
# %% cell
rows = []
for order in iter_orders(order_ids):  # expect: AIP402
    rows.append({"order_id": order["id"], "amount": order["value"]})
orders = pd.DataFrame(rows)
total = orders["amount"].sum()
# %% teardown
server.kill()
