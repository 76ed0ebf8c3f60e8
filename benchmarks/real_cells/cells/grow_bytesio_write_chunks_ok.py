# ruff: noqa
"""A streamed download written chunk by chunk into an io.BytesIO, then hashed: the buffer grows in place, nothing is copied again.

source: download helpers that stream a response into memory with a buffer (buf = io.BytesIO();
        for chunk in resp.iter_content(8192): buf.write(chunk); data = buf.getvalue()), before
        unpacking or hashing it; against a local server
family: growing
kind: healthy
verdict: AIP903|AIP907|none
rewrite: no: BytesIO grows its buffer geometrically, so each byte is copied a bounded number of times
size: an 8 MB file in 8 KB chunks (1,024 chunks)
scaled: no
kernel: data
"""
# %% setup
import hashlib
import io

import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
url = f"{base}/blob/8192"
# %% cell
resp = requests.get(url, stream=True, timeout=30)
resp.raise_for_status()
buffer = io.BytesIO()
for chunk in resp.iter_content(chunk_size=8192):
    buffer.write(chunk)
content = buffer.getvalue()
digest = hashlib.sha256(content).hexdigest()
# %% teardown
server.kill()
