# ruff: noqa
"""Polling a job's status with a pause between requests until it reports done.

source: cloud and batch-job notebooks (submit, then `while not done: time.sleep(...)` and ask
        again), against a local server
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: the waits are the point (the job decides when it is done)
size: 8 polls, 60 ms apart
scaled: no
kernel: data
"""
# %% setup
import time

import requests
from cell_data import start_server

server, base = start_server(latency_ms=5)
job = 0
# %% cell
job += 1
status_url = f"{base}/status/8?job={job}"
done = False
while not done:
    time.sleep(0.06)
    done = requests.get(status_url, timeout=10).json()["done"]
# %% teardown
server.kill()
