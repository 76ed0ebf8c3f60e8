# ruff: noqa
"""Images listed in a CSV of URLs downloaded one after another with urllib.request.urlretrieve.

source: Kaggle and Colab notebooks that build an image data set from a CSV of links (for i, url in
        enumerate(df["image_url"]): urllib.request.urlretrieve(url, f"images/{i}.jpg")), before
        training on the folder; against a local server answering in 20 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the same urlretrieve calls in a ThreadPoolExecutor(max_workers=8) (the same files)
size: 50 images of 16 KB, 20 ms latency
scaled: no
kernel: data
"""
# %% setup
import os
import urllib.request

import pandas as pd
from cell_data import start_server, temp_dir

server, base = start_server(latency_ms=20)
links = pd.DataFrame({"image_id": range(50), "image_url": [f"{base}/blob/16?img={i}" for i in range(50)]})
image_dir = temp_dir()
# %% cell
paths = []
for i, url in enumerate(links["image_url"]):  # expect: AIP402
    path, _ = urllib.request.urlretrieve(url, os.path.join(image_dir, f"{i}.jpg"))  # expect: AIP402
    paths.append(path)
total_bytes = sum(os.path.getsize(p) for p in paths)
# %% teardown
server.kill()
