# ruff: noqa
"""A scraper that waits between requests on purpose, to stay under the site's rate limit.

source: web-scraping notebooks with requests and a fixed delay (for page in pages:
        requests.get(url); ...; time.sleep(delay)), the "be polite" pattern the tutorials teach;
        against a local server answering in 5 ms, with a 50 ms pause
family: blocking-io
kind: healthy
verdict: AIP903|none
rewrite: no: the pauses are the point (sending the requests together defeats the rate limit)
size: 12 pages, 50 ms apart
scaled: yes: the tutorials pause 1 to 3 s between pages
unsure: a tool cannot know the pause is deliberate; it should at least not tell the user to send
        the requests together without saying the loop sleeps
kernel: data
"""
# %% setup
import time

import requests
from cell_data import start_server

server, base = start_server(latency_ms=5)
pages = [f"{base}/item/{i}" for i in range(12)]
# %% cell
results = []
for url in pages:
    response = requests.get(url, timeout=10)
    results.append(response.json()["value"])
    time.sleep(0.05)
# %% teardown
server.kill()
