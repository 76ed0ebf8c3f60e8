# ruff: noqa
"""Stock levels fetched item after item over one keep-alive http.client.HTTPConnection: request, getresponse, read, then the next item.

source: standard-library-only scripts and notebooks (no requests on the machine) that call an
        internal inventory API with http.client (conn = http.client.HTTPConnection(host, port);
        for sku in skus: conn.request("GET", f"/stock/{sku}"); resp = conn.getresponse();
        json.loads(resp.read())), reusing the connection as the docs show; against a local
        server answering in 15 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: a thread pool over the SKUs with one HTTPConnection per thread (a connection serves one request at a time): the same answers, the waits overlapped
size: 60 requests of 15 ms latency
scaled: no
kernel: data
"""
# %% setup
import http.client
import json
from urllib.parse import urlparse

from cell_data import start_server

server, base = start_server(latency_ms=15)
host, port = urlparse(base).hostname, urlparse(base).port
skus = [f"SKU{i:05d}" for i in range(40_100, 40_160)]
# %% cell
conn = http.client.HTTPConnection(host, port, timeout=10)
stock = {}
for sku in skus:  # expect: AIP402
    conn.request("GET", f"/stock/{sku}")  # expect: AIP402
    resp = conn.getresponse()  # expect: AIP402
    stock[sku] = json.loads(resp.read())["value"]
conn.close()
low_stock = [sku for sku, level in stock.items() if level < 20]
# %% teardown
server.kill()
