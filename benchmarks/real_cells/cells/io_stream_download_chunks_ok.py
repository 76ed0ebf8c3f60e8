# ruff: noqa
"""A dataset downloaded once, streamed to disk in 64 KB chunks (one request).

source: the download helpers of many notebooks and course utilities (with requests.get(url,
        stream=True) as r: for chunk in r.iter_content(chunk_size=...): f.write(chunk)), run
        before the data is loaded
family: blocking-io
kind: healthy
verdict: AIP903|AIP907|none
rewrite: no: one request, read as it arrives
size: one file of 24 MB
scaled: no
kernel: data
"""
# %% setup
import requests
from cell_data import start_server, temp_dir

server, base = start_server(latency_ms=10)
target = temp_dir() / "dataset.bin"
# %% cell
with requests.get(f"{base}/blob/24000", stream=True, timeout=30) as r:
    r.raise_for_status()
    with open(target, "wb") as f:
        for chunk in r.iter_content(chunk_size=65_536):
            f.write(chunk)
size_mb = target.stat().st_size / 1e6
# %% teardown
server.kill()
