# ruff: noqa
"""Eight worker threads take URLs from a queue.Queue and fetch them with requests: the waits overlap.

source: Python threading tutorials and scraper scripts built on the queue module's worker pattern
        (def worker(): while True: item = q.get(); if item is None: break; fetch it; q.task_done();
        threads started, URLs put, one None per thread to stop them, then join), against a local
        server answering in 20 ms
family: threads
kind: healthy
verdict: AIP903|none
rewrite: no: I/O already concurrent (threads that wait on sockets let the others run)
size: 80 URLs of 20 ms latency, 8 threads
scaled: no
kernel: data
"""
# %% setup
import queue
import threading

import requests
from cell_data import start_server

server, base = start_server(latency_ms=20)
urls = [f"{base}/item/doc{i}" for i in range(80)]
# %% cell
q = queue.Queue()
results = {}
lock = threading.Lock()


def worker():
    session = requests.Session()
    while True:
        url = q.get()
        if url is None:
            q.task_done()
            break
        value = session.get(url, timeout=10).json()["value"]
        with lock:
            results[url] = value
        q.task_done()


threads = [threading.Thread(target=worker) for _ in range(8)]
for t in threads:
    t.start()
for url in urls:
    q.put(url)
for _ in threads:
    q.put(None)
q.join()
for t in threads:
    t.join()
# %% teardown
server.kill()
