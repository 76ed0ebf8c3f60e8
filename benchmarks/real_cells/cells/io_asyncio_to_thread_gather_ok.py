# ruff: noqa
"""Sixty requests gathered with asyncio.gather over asyncio.to_thread(requests.get, ...): the waits overlap.

source: the asyncio documentation's asyncio.to_thread ("run IO-bound functions in a separate
        thread") and the scraping notebooks that follow it to keep requests while running the calls
        concurrently (await asyncio.gather(*(asyncio.to_thread(fetch, u) for u in urls))); against a
        local server answering in 20 ms
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: the requests already run concurrently in the default executor's threads; the cell waits for the slowest few, not for sixty in turn
size: 60 URLs of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import asyncio

import requests

from cell_data import start_server

server, base = start_server(latency_ms=20)
urls = [f"{base}/item/product{i}" for i in range(60)]


def fetch(url):
    return requests.get(url, timeout=30).json()
# %% cell
results = await asyncio.gather(*(asyncio.to_thread(fetch, u) for u in urls))
values = [r["value"] for r in results]
# %% teardown
server.kill()
