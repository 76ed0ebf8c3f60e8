# ruff: noqa
"""A for loop calling requests.get on each URL and keeping the JSON.

source: API notebooks that page through records one URL at a time (requests.get(url).json() in a
        loop; the shape of AIP402's documentation)
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: a thread pool over the URLs
size: 60 requests of 10 ms latency
scaled: no
kernel: data
"""
# %% setup
import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
urls = [f"{base}/item/{i}" for i in range(60)]
# %% cell
pages = []
for url in urls:  # expect: AIP402
    pages.append(requests.get(url, timeout=10).json())  # expect: AIP402
# %% teardown
server.kill()
