# ruff: noqa
"""Replayed events dropped from a stream with a bounded deque of recent ids: `if event_id in recent` scans up to 1,500 ids for every event.

source: stream-processing tutorials and consumer scripts (Kafka, webhooks, log shipping) that
        deduplicate at-least-once deliveries with a sliding window (recent = deque(maxlen=N); if
        event["id"] in recent: continue; recent.append(event["id"])), then aggregate the events
family: membership
kind: slow
verdict: AIP907
rewrite: yes: a set beside the deque (add each id; before appending to a full deque, discard the id it will evict: recent[0]), and `if event_id in seen` (the same events kept)
size: 30,000 events, a window of 1,500 ids, about 4 % replays
scaled: no
kernel: data
unsure: the scanned container is a collections.deque, not a list; AIP202 names membership scans in a loop
"""
# %% setup
from collections import deque

import numpy as np

rng = np.random.default_rng(517)
n = 30_000
ids = [f"evt-{i:010d}" for i in rng.integers(0, 10**10, n)]
for i in np.flatnonzero(rng.random(n) < 0.04):
    if i > 50:
        ids[i] = ids[i - int(rng.integers(1, 50))]
events = [{"event_id": eid, "user": int(u), "amount": float(a)}
          for eid, u, a in zip(ids, rng.integers(0, 900, n), rng.gamma(2.0, 15.0, n))]
# %% cell
recent = deque(maxlen=1_500)
unique_events, duplicates = [], 0
for event in events:  # expect: AIP202
    if event["event_id"] in recent:  # expect: AIP202
        duplicates += 1
        continue
    recent.append(event["event_id"])
    unique_events.append(event)
revenue = sum(e["amount"] for e in unique_events)
