# ruff: noqa
"""Clickstream sessions numbered with itertuples: a new session when the user changes or 30 minutes pass.

source: web-analytics and e-commerce notebooks that sessionise event logs (the Kaggle e-commerce
        behaviour and clickstream data sets: for row in df.itertuples(): if row.user_id != prev_user
        or row.ts - prev_ts > gap: session += 1), before the shift / diff / cumsum form
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: new = (clicks["user_id"] != clicks["user_id"].shift()) | (clicks["ts"].diff() > gap); clicks["session"] = new.cumsum() (the same numbers)
size: 250,000 clicks of 8,000 users, sorted by user and time
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(205)
n = 250_000
users = np.sort(rng.integers(0, 8_000, n))
seconds = rng.exponential(400.0, n).cumsum()
clicks = pd.DataFrame({"user_id": users, "ts": pd.to_datetime(seconds, unit="s", origin="2024-01-01")})
clicks = clicks.sort_values(["user_id", "ts"], ignore_index=True)
gap = pd.Timedelta(minutes=30)
# %% cell
sessions = []
session, prev_user, prev_ts = 0, None, None
for row in clicks.itertuples():  # expect: AIP301
    if row.user_id != prev_user or row.ts - prev_ts > gap:  # expect: AIP301
        session += 1
    sessions.append(session)
    prev_user, prev_ts = row.user_id, row.ts
clicks["session"] = sessions
per_user = clicks.groupby("user_id")["session"].nunique().mean()
