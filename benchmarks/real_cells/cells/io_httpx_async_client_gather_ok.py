# ruff: noqa
"""Product pages fetched with one httpx.AsyncClient and asyncio.gather: the requests already overlap.

source: web-scraping tutorials' async version of an httpx scraper (async with httpx.AsyncClient()
        as client: responses = await asyncio.gather(*(client.get(url) for url in urls))), against
        a local server answering in 20 ms
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: already concurrent
size: 60 pages of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import asyncio

import httpx
from cell_data import start_server

server, base = start_server(latency_ms=20)
product_urls = [f"{base}/item/sku{i:04d}" for i in range(60)]
# %% cell
async def scrape(urls):
    async with httpx.AsyncClient(timeout=10) as client:
        responses = await asyncio.gather(*(client.get(url) for url in urls))
    return [r.json() for r in responses]


products = await scrape(product_urls)
prices = [p["value"] for p in products]
# %% teardown
server.kill()
