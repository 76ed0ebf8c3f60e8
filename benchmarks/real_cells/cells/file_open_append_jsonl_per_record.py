# ruff: noqa
"""A pipeline's records saved as JSON lines one at a time: the output file opened in append mode, one json.dumps line written and the file closed again, for every record.

source: scraping, labelling and LLM-annotation scripts that save as they go (for rec in results:
        with open("out.jsonl", "a") as f: f.write(json.dumps(rec) + "\n")), before opening the file
        once around the loop
family: file-read
kind: slow
verdict: AIP907|AIP903
rewrite: yes: with open(path, "w") as f: f.writelines(json.dumps(rec) + "\n" for rec in records) (the same file)
size: 40,000 records of 6 fields
scaled: no
kernel: data
unsure: the trap is a file opened and closed again per record for writing; AIP105 names the read side of it; any code on these lines is accepted
"""
# %% setup
import json

import numpy as np

from cell_data import temp_dir

rng = np.random.default_rng(729)
labels = ["positive", "negative", "neutral"]
records = [{"id": i, "text_len": int(l), "label": labels[k], "score": round(float(s), 4), "model": "annotator-v2",
            "latency_ms": int(m)}
           for i, (l, k, s, m) in enumerate(zip(rng.integers(20, 400, 40_000), rng.integers(0, 3, 40_000),
                                               rng.random(40_000), rng.integers(50, 900, 40_000)))]
out_dir = temp_dir()
# %% cell
out_path = out_dir / "annotations.jsonl"
out_path.unlink(missing_ok=True)
for rec in records:  # expect: *
    with open(out_path, "a", encoding="utf-8") as f:  # expect: *
        f.write(json.dumps(rec) + "\n")  # expect: *
n_saved = sum(1 for _ in open(out_path, encoding="utf-8"))
