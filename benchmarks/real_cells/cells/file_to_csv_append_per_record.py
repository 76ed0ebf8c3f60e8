# ruff: noqa
"""A scraper's records saved one at a time: a one-row DataFrame written with to_csv(mode="a") per record.

source: web-scraping and data-collection scripts and notebooks that save as they go (for item in
        items: pd.DataFrame([item]).to_csv("out.csv", mode="a", header=not os.path.exists(...),
        index=False)), before collecting the records and writing the file once
family: file-read
kind: slow
verdict: AIP907|AIP903
rewrite: yes: pd.DataFrame(records).to_csv(path, index=False) once (the same file)
size: 1,000 records (a scrape of 50 result pages) of 5 fields
scaled: no
kernel: data
"""
# %% setup
import os

import numpy as np
import pandas as pd

from cell_data import temp_dir

rng = np.random.default_rng(212)
records = [{"title": f"listing {i}", "price": float(p), "rooms": int(r), "city": c, "url": f"/item/{i}"}
           for i, (p, r, c) in enumerate(zip(rng.gamma(3.0, 400.0, 1_000).round(2), rng.integers(1, 6, 1_000),
                                             rng.choice(["Lyon", "Paris", "Nantes", "Lille"], 1_000)))]
out_dir = temp_dir()
# %% cell
path = out_dir / "listings.csv"
if path.exists():
    path.unlink()
for record in records:  # expect: *
    pd.DataFrame([record]).to_csv(path, mode="a", header=not os.path.exists(path), index=False)  # expect: *
saved = pd.read_csv(path)
