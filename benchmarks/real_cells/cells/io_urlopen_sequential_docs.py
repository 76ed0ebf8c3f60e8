# ruff: noqa
"""Pages fetched one after another with urllib.request.urlopen in a loop.

source: the Python documentation's concurrent.futures ThreadPoolExecutor example (load_url with
        urllib.request.urlopen over a list of URLs), in the sequential form notebooks write before
        reaching for the pool; against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: ThreadPoolExecutor(max_workers=5) over the URLs, as the documentation does
size: 40 URLs of 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import urllib.request

from cell_data import start_server

server, base = start_server(latency_ms=20)
URLS = [f"{base}/item/page{i}" for i in range(40)]


def load_url(url, timeout):
    with urllib.request.urlopen(url, timeout=timeout) as conn:
        return conn.read()
# %% cell
sizes = {}
for url in URLS:  # expect: AIP402
    sizes[url] = len(load_url(url, 60))  # expect: AIP402
# %% teardown
server.kill()
