# ruff: noqa
"""Stock levels read through a small API client class of an earlier cell (a requests.Session, a retry loop, one GET per SKU), called for each SKU in a dict comprehension: one request waits for the last.

source: notebooks and scripts that wrap a REST API in a client class (class InventoryClient:
        __init__ makes a requests.Session with auth headers; _get retries on errors with
        backoff; get_item(sku) returns the JSON), then enrich a product list with
        {sku: client.get_item(sku)["quantity"] for sku in skus}; against a local server answering
        in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the same client's get_item mapped over the SKUs by a thread pool (with ThreadPoolExecutor(max_workers=8) as pool: levels = dict(zip(skus, pool.map(client.get_item, skus)))): the same answers, the waits overlapped (a Session may be shared between threads for plain GETs)
size: 80 SKUs, 20 ms per request
scaled: no
kernel: data
"""
# %% setup
import time

import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)


class InventoryClient:
    def __init__(self, base_url, token, retries=3, backoff=0.2):
        self.base_url = base_url
        self.retries, self.backoff = retries, backoff
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}", "Accept": "application/json"})

    def _get(self, path):
        for attempt in range(self.retries):
            try:
                resp = self.session.get(f"{self.base_url}{path}", timeout=10)
                resp.raise_for_status()
                return resp.json()
            except requests.RequestException:
                if attempt == self.retries - 1:
                    raise
                time.sleep(self.backoff * 2 ** attempt)

    def get_item(self, sku):
        return self._get(f"/item/{sku}")


client = InventoryClient(base, token="demo-token")
skus = [f"SKU-{k:05d}" for k in range(10_000, 10_080)]
# %% cell
levels = {sku: client.get_item(sku)["value"] for sku in skus}  # expect: AIP402
low_stock = sorted(sku for sku, q in levels.items() if q < 20)
# %% teardown
server.kill()
