# ruff: noqa
"""An async function that awaits asyncio.to_thread(requests.get, url) inside a for loop: each request waits for the one before.

source: asyncio tutorials and notebooks that move blocking requests off the event loop but await
        them one by one (async def fetch_all(urls): for url in urls: response = await
        asyncio.to_thread(requests.get, url); results.append(response.json())), before
        asyncio.gather over the same awaitables; against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: await asyncio.gather(*(asyncio.to_thread(requests.get, u, timeout=10) for u in urls)) (the same answers in the same order, the waits overlapped)
size: 50 URLs of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import asyncio

import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)
urls = [f"{base}/item/user{i}" for i in range(50)]
# %% cell
async def fetch_all(urls):
    results = []
    for url in urls:  # expect: AIP402
        response = await asyncio.to_thread(requests.get, url, timeout=10)  # expect: AIP402
        results.append(response.json())
    return results


results = await fetch_all(urls)  # expect: AIP402
values = [r["value"] for r in results]
# %% teardown
server.kill()
