# ruff: noqa
"""Delivery performance of 800,000 orders with whole-column datetime work: timestamps parsed with pd.to_datetime(format=...), the promised days added with pd.to_timedelta, lateness grouped by state.

source: e-commerce delivery-performance notebooks on the Olist orders data (purchase and delivery
        timestamps read as text, df["eta"] = df["purchase_ts"] + pd.to_timedelta(df["days"],
        unit="D"), then late share and mean delay per customer state), written the vectorised way
family: row-apply
kind: healthy
verdict: AIP907|none
rewrite: no: every step is one operation over the columns; the format= given to to_datetime is already the fast path for parsing
size: 800,000 orders in 27 states
scaled: yes: eight times Olist's 99,000 orders, a marketplace's year
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(622)
n = 800_000
states = np.array(["SP", "RJ", "MG", "RS", "PR", "SC", "BA", "DF", "ES", "GO", "PE", "CE", "PA", "MT",
                   "MA", "MS", "PB", "PI", "RN", "AL", "SE", "TO", "RO", "AM", "AC", "AP", "RR"])
purchased = pd.Timestamp("2017-01-01") + pd.to_timedelta(rng.integers(0, 600 * 86_400, n), unit="s")
shipping_days = rng.integers(5, 40, n)
delivered = purchased + pd.to_timedelta(shipping_days + rng.normal(-6, 7, n).round(), unit="D")
orders = pd.DataFrame({
    "customer_state": pd.Categorical(states[rng.integers(0, 27, n)]),
    "purchase_ts": purchased.strftime("%Y-%m-%d %H:%M:%S"),
    "shipping_days": shipping_days.astype(np.int16),
    "delivered_ts": delivered.strftime("%Y-%m-%d %H:%M:%S"),
})
# %% cell
purchased_at = pd.to_datetime(orders["purchase_ts"], format="%Y-%m-%d %H:%M:%S")
delivered_at = pd.to_datetime(orders["delivered_ts"], format="%Y-%m-%d %H:%M:%S")
eta = purchased_at + pd.to_timedelta(orders["shipping_days"], unit="D")
days_late = (delivered_at - eta).dt.days
by_state = pd.DataFrame({"late_share": days_late.gt(0), "delay": days_late}).groupby(orders["customer_state"], observed=True).mean()
worst_states = by_state.sort_values("late_share", ascending=False).head(5)
