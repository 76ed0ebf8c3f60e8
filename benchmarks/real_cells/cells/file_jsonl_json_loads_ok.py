# ruff: noqa
"""A JSON Lines event log read line by line with json.loads into records, then a frame and a groupby.

source: notebooks reading JSON Lines exports (tweets, GitHub Archive events, app logs:
        records = [json.loads(line) for line in f], then pd.DataFrame(records)), the streaming way
        the json module's documentation and the JSON Lines format suggest
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: the time is parsing the JSON itself, which every reader of the file has to do; the file is streamed, never held whole
size: 150,000 events
scaled: no
kernel: data
"""
# %% setup
import json

import numpy as np
import pandas as pd

from cell_data import temp_dir

rng = np.random.default_rng(138)
kinds = np.array(["PushEvent", "WatchEvent", "IssuesEvent", "ForkEvent", "PullRequestEvent"])
path = temp_dir() / "events.jsonl"
with open(path, "w", encoding="utf-8") as out:
    for i, (kind, repo, size) in enumerate(zip(kinds[rng.integers(0, 5, 150_000)],
                                               rng.integers(0, 3_000, 150_000), rng.integers(0, 40, 150_000))):
        out.write(json.dumps({"id": i, "type": str(kind), "repo": f"org/repo{repo}", "size": int(size)}) + "\n")
# %% cell
records = []
with open(path, encoding="utf-8") as f:
    for line in f:
        records.append(json.loads(line))
events = pd.DataFrame(records)  # ok: AIP303
per_type = events.groupby("type")["size"].sum()
