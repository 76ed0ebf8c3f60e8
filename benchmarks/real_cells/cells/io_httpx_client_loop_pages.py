# ruff: noqa
"""A scraper that fetches product pages one after another with an httpx.Client in a for loop.

source: web-scraping tutorials that use httpx's synchronous client (with httpx.Client(headers=...)
        as client: for url in product_urls: response = client.get(url); parse and keep the
        fields), before the same pages with httpx.AsyncClient and asyncio.gather; against a local
        server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: httpx.AsyncClient and asyncio.gather over the URLs (or the client's get in a thread pool): the same answers, the waits overlapped
size: 60 pages of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import httpx
from cell_data import start_server

server, base = start_server(latency_ms=20)
product_urls = [f"{base}/item/sku{i:04d}" for i in range(60)]
# %% cell
products = []
with httpx.Client(headers={"User-Agent": "notebook-scraper"}, timeout=10) as client:
    for url in product_urls:  # expect: AIP402
        response = client.get(url)  # expect: AIP402
        response.raise_for_status()
        data = response.json()
        products.append({"sku": data["id"], "price": data["value"]})
mean_price = sum(p["price"] for p in products) / len(products)
# %% teardown
server.kill()
