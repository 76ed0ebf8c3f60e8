# ruff: noqa
"""A streamed download gathered with content += chunk into a bytes object: every chunk copies all the bytes received so far.

source: download helpers in notebooks and scripts that stream a file with requests (resp =
        requests.get(url, stream=True); content = b""; for chunk in resp.iter_content(8192):
        content += chunk) and then hash or unpack the bytes; bytes cannot grow in place, so the
        copies grow with the square of the size; against a local server
family: growing
kind: slow
verdict: AIP907
rewrite: yes: collect the chunks in a list and b"".join them once (or write them to an io.BytesIO): the same bytes
size: an 8 MB file in 8 KB chunks (1,024 chunks)
scaled: no
kernel: data
unsure: no rule of the catalog names a bytes object grown in a loop; AIP203 names arrays, tensors and
        frames grown the same way, and any code on these lines is accepted
"""
# %% setup
import hashlib

import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
url = f"{base}/blob/8192"
# %% cell
resp = requests.get(url, stream=True, timeout=30)
resp.raise_for_status()
content = b""
for chunk in resp.iter_content(chunk_size=8192):  # expect: *
    content += chunk  # expect: *
digest = hashlib.sha256(content).hexdigest()
size_mb = len(content) / 2 ** 20
# %% teardown
server.kill()
