# ruff: noqa
"""Estimated delivery dates made with df.apply(lambda r: r["purchased_at"] + pd.Timedelta(days=r["shipping_days"]), axis=1): a row Series and a Timedelta built for every order.

source: e-commerce delivery-performance notebooks on the Brazilian Olist orders data set (an
        estimated delivery date from the purchase timestamp and the carrier's promised days,
        df["eta"] = df.apply(lambda row: row["purchase_ts"] + pd.Timedelta(days=row["days"]),
        axis=1), then late orders and mean delay per state)
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: orders["purchased_at"] + pd.to_timedelta(orders["shipping_days"], unit="D") (the same timestamps, one addition over the columns)
size: 40,000 orders in 27 states
scaled: yes: Olist has about 99,000 orders; 40,000 of them
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(601)
n = 40_000
states = np.array(["SP", "RJ", "MG", "RS", "PR", "SC", "BA", "DF", "ES", "GO", "PE", "CE", "PA", "MT",
                   "MA", "MS", "PB", "PI", "RN", "AL", "SE", "TO", "RO", "AM", "AC", "AP", "RR"])
purchased = pd.Timestamp("2017-01-01") + pd.to_timedelta(rng.integers(0, 600 * 86_400, n), unit="s")
shipping_days = rng.integers(5, 40, n)
delivered = purchased + pd.to_timedelta(shipping_days + rng.normal(-6, 7, n).round(), unit="D")
orders = pd.DataFrame({
    "order_id": [f"{i:032x}" for i in rng.integers(0, 2**62, n)],
    "customer_state": states[rng.choice(27, n, p=np.r_[0.42, 0.13, 0.12, np.full(24, 0.33 / 24)])],
    "purchased_at": purchased,
    "shipping_days": shipping_days,
    "delivered_at": delivered,
})
# %% cell
orders["eta"] = orders.apply(lambda r: r["purchased_at"] + pd.Timedelta(days=r["shipping_days"]), axis=1)  # expect: AIP302
orders["days_late"] = (orders["delivered_at"] - orders["eta"]).dt.days
late_share = (orders["days_late"] > 0).groupby(orders["customer_state"]).mean().sort_values(ascending=False)
