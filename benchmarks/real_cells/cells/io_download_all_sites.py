# ruff: noqa
"""download_all_sites(sites): helpers from an earlier cell fetch each URL in turn with a Session.

source: the Real Python article "Speed Up Your Python Program With Concurrency" (the synchronous
        version: download_site and download_all_sites, then a timed call), against a local server
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the same calls in a thread pool (the article's threading version)
size: 80 requests of 10 ms latency
scaled: no
kernel: data
"""
# %% setup
import time

import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
sites = [f"{base}/item/{i}" for i in range(80)]


def download_site(url, session):
    with session.get(url, timeout=10) as response:
        return len(response.content)


def download_all_sites(sites):
    with requests.Session() as session:
        for url in sites:
            download_site(url, session)
# %% cell
start_time = time.time()
download_all_sites(sites)  # expect: AIP402
duration = time.time() - start_time
print(f"Downloaded {len(sites)} in {duration:.2f} seconds")
# %% teardown
server.kill()
