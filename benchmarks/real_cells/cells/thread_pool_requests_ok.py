# ruff: noqa
"""Eighty requests through a thread pool of 8 with a shared requests.Session: I/O done concurrently.

source: the Real Python article "Speed Up Your Python Program With Concurrency" (the threading
        version of download_all_sites), against a local server answering in 20 ms
family: threads
kind: healthy
verdict: AIP903|none
rewrite: no: already concurrent
size: 80 requests of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import concurrent.futures
import threading

import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)
sites = [f"{base}/item/{i}" for i in range(80)]
thread_local = threading.local()


def get_session():
    if not hasattr(thread_local, "session"):
        thread_local.session = requests.Session()
    return thread_local.session


def download_site(url):
    with get_session().get(url, timeout=10) as response:
        return len(response.content)
# %% cell
with concurrent.futures.ThreadPoolExecutor(max_workers=8) as executor:
    sizes = list(executor.map(download_site, sites))
# %% teardown
server.kill()
