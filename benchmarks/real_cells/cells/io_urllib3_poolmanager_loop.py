# ruff: noqa
"""Quotes fetched symbol after symbol with a urllib3.PoolManager in a for loop: one blocking request at a time.

source: market-data scripts and notebooks that use urllib3 directly, as its user guide shows
        (http = urllib3.PoolManager(); resp = http.request("GET", url); json.loads(resp.data)),
        looping over a watch list of ticker symbols; against a local server answering in 15 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the PoolManager is thread-safe: a thread pool over the symbols with maxsize raised to the pool's size (the same quotes, the waits overlapped)
size: 60 requests of 15 ms latency
scaled: no
kernel: data
"""
# %% setup
import json

import urllib3
from cell_data import start_server

server, base = start_server(latency_ms=15)
symbols = ["AAPL", "MSFT", "GOOG", "AMZN", "META", "NVDA", "TSLA", "JPM", "V", "MA", "UNH", "HD",
           "PG", "XOM", "CVX", "KO", "PEP", "MRK", "ABBV", "LLY", "AVGO", "COST", "WMT", "BAC",
           "DIS", "CSCO", "ORCL", "ADBE", "CRM", "NFLX", "INTC", "AMD", "QCOM", "TXN", "IBM", "NKE",
           "MCD", "SBUX", "BA", "CAT", "GE", "MMM", "HON", "UPS", "LMT", "GS", "MS", "C", "WFC",
           "T", "VZ", "PFE", "JNJ", "TMO", "DHR", "ABT", "MDT", "BMY", "AMGN", "GILD"]
http = urllib3.PoolManager(headers={"Accept": "application/json"})
# %% cell
quotes = {}
for symbol in symbols:  # expect: AIP402
    resp = http.request("GET", f"{base}/item/{symbol}", timeout=10.0)  # expect: AIP402
    quotes[symbol] = json.loads(resp.data)["value"]
movers = sorted(quotes, key=quotes.get, reverse=True)[:5]
# %% teardown
server.kill()
