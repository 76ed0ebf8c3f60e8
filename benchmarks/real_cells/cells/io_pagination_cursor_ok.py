# ruff: noqa
"""A cursor-paginated API read page after page: each request needs the previous answer's cursor.

source: API notebooks (GitHub, Reddit and most REST APIs page with a "next" link), against a local
        server answering in 10 ms
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: the next URL is only known from the previous response
size: 30 pages of 20 items, 10 ms latency
scaled: no
kernel: data
"""
# %% setup
import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
# %% cell
items = []
url = f"{base}/page/0?last=30"
with requests.Session() as session:
    while url:
        page = session.get(url, timeout=10).json()
        items.extend(page["items"])
        url = f"{base}/page/{page['next']}?last=30" if page["next"] is not None else None
# %% teardown
server.kill()
