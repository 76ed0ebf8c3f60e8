# ruff: noqa
"""Event rows whose payload column holds a JSON string: iterrows over the frame, json.loads of each payload, three fields written back with df.at[i, col].

source: product-analytics and data-engineering notebooks on event exports (Segment, Mixpanel,
        Firebase dumps with a nested JSON "properties" column: for i, row in df.iterrows(): p =
        json.loads(row["payload"]); df.at[i, "country"] = p["user"]["country"]; ...), before
        pd.json_normalize
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: parsed = pd.json_normalize([json.loads(s) for s in events["payload"]]); events[["country", "os", "amount"]] = parsed[["user.country", "device.os", "amount"]].to_numpy() (the same values; the JSON is still parsed once per row, the row objects and the cell writes go)
size: 8,000 events
scaled: no
kernel: data
"""
# %% setup
import json

import numpy as np
import pandas as pd

rng = np.random.default_rng(704)
n = 8_000
countries = ["DE", "FR", "US", "BR", "IN", "JP", "GB", "ES"]
oses = ["iOS", "Android", "Windows", "macOS"]
payloads = [json.dumps({"user": {"id": int(u), "country": countries[c], "plan": "pro" if u % 7 == 0 else "free"},
                        "device": {"os": oses[o], "version": f"{v}.{o}"},
                        "event": "purchase" if a > 0 else "view", "amount": round(float(a), 2)})
            for u, c, o, v, a in zip(rng.integers(1, 9_000, n), rng.integers(0, len(countries), n),
                                     rng.integers(0, len(oses), n), rng.integers(10, 18, n),
                                     np.where(rng.random(n) < 0.2, rng.gamma(2.0, 20.0, n), 0.0))]
events_raw = pd.DataFrame({"event_id": np.arange(n), "ts": pd.date_range("2025-03-01", periods=n, freq="7s"),
                           "payload": payloads})
# %% cell
events = events_raw.copy()
events["country"] = None
events["os"] = None
events["amount"] = np.nan
for i, row in events.iterrows():  # expect: AIP301
    p = json.loads(row["payload"])
    events.at[i, "country"] = p["user"]["country"]  # expect: AIP301
    events.at[i, "os"] = p["device"]["os"]  # expect: AIP301
    events.at[i, "amount"] = p["amount"]  # expect: AIP301
revenue_by_country = events.groupby("country")["amount"].sum()
