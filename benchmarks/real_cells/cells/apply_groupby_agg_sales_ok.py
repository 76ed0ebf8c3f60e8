# ruff: noqa
"""Total sales by city and month with one groupby aggregation.

source: Keith Galli's pandas sales analysis ("What was the best month for sales?",
        all_data.groupby(["City", "Month"]).sum()), on a year of orders
family: row-apply
kind: healthy
verdict: none|AIP907
rewrite: no: already one grouped aggregation
size: 186,000 order lines
scaled: no
kernel: data
"""
# %% setup
from cell_data import sales

all_data = sales(186_000, seed=12)
all_data["Sales"] = all_data["qty"] * all_data["price"]
# %% cell
best = all_data.groupby(["city", "month"])["Sales"].agg(["sum", "mean", "count"])
best.sort_values("sum", ascending=False).head(10)
