# ruff: noqa
"""Requests handed to a ThreadPoolExecutor one by one, each future's .result() awaited inside the same loop iteration: the pool never has two requests in flight.

source: notebooks and scripts that adopt concurrent.futures but wait in the submitting loop (with
        ThreadPoolExecutor(max_workers=8) as pool: for url in urls: future = pool.submit(fetch,
        url); results.append(future.result())), so the pool runs the calls one after another;
        against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: submit every request first, then collect (futures = [pool.submit(fetch, u) for u in urls]; results = [f.result() for f in futures]) or pool.map(fetch, urls): the same results in the same order, the waits overlapped
size: 50 requests of 20 ms latency, a pool of 8 threads
scaled: no
kernel: data
unsure: the requests run in the pool's threads; the loop only waits for each future, so the finding may sit
        on the loop, the submit or the result line
"""
# %% setup
from concurrent.futures import ThreadPoolExecutor

import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)
urls = [f"{base}/item/article{i}" for i in range(50)]
# %% cell
def fetch(url):
    resp = requests.get(url, timeout=10)
    resp.raise_for_status()
    return resp.json()


results = []
with ThreadPoolExecutor(max_workers=8) as pool:  # expect: AIP402
    for url in urls:  # expect: AIP402
        future = pool.submit(fetch, url)  # expect: AIP402
        results.append(future.result())  # expect: AIP402
scores = [r["value"] for r in results]
# %% teardown
server.kill()
