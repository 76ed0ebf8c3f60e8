# ruff: noqa
"""Coroutines gathered with asyncio.gather whose bodies call requests.get: the event loop runs them one by one.

source: web-scraping notebooks and blog posts that "make requests async" by wrapping requests in
        async def (async def fetch(url): return requests.get(url).json(); results = await
        asyncio.gather(*[fetch(u) for u in urls])): requests blocks the event loop, so nothing
        overlaps; against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: await asyncio.gather(*[asyncio.to_thread(requests.get, u) for u in urls]) (or an async HTTP client): the same answers, the waits overlapped
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
# %% cell
async def fetch(url):
    response = requests.get(url, timeout=30)  # expect: AIP402
    return response.json()


results = await asyncio.gather(*[fetch(u) for u in urls])  # expect: AIP402
values = [r["value"] for r in results]
# %% teardown
server.kill()
