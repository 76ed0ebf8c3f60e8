# ruff: noqa
"""Event rows whose payload column holds a JSON string, flattened the usual way: json.loads over the column in one comprehension, pd.json_normalize once, the wanted columns joined back.

source: product-analytics notebooks on event exports (Segment, Mixpanel, Firebase) that flatten a
        nested JSON column with pd.json_normalize([json.loads(s) for s in df["payload"]]) and
        join the columns they need, then aggregate
family: row-loop
kind: healthy
verdict: AIP907|none
rewrite: no: every payload must be parsed once by json.loads (no vectorised parser in pandas or NumPy for it); the rest is whole-column work
size: 50,000 events
scaled: no
kernel: data
"""
# %% setup
import json

import numpy as np
import pandas as pd

rng = np.random.default_rng(705)
n = 50_000
countries = ["DE", "FR", "US", "BR", "IN", "JP", "GB", "ES"]
oses = ["iOS", "Android", "Windows", "macOS"]
payloads = [json.dumps({"user": {"id": int(u), "country": countries[c]},
                        "device": {"os": oses[o]}, "amount": round(float(a), 2)})
            for u, c, o, a in zip(rng.integers(1, 9_000, n), rng.integers(0, len(countries), n),
                                  rng.integers(0, len(oses), n),
                                  np.where(rng.random(n) < 0.2, rng.gamma(2.0, 20.0, n), 0.0))]
events_raw = pd.DataFrame({"event_id": np.arange(n), "payload": payloads})
# %% cell
parsed = pd.json_normalize([json.loads(s) for s in events_raw["payload"]])
events = events_raw.join(parsed[["user.country", "device.os", "amount"]]
                         .rename(columns={"user.country": "country", "device.os": "os"}))
revenue_by_country = events.groupby("country")["amount"].sum()
