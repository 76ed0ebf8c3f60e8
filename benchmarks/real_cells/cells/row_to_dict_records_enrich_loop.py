# ruff: noqa
"""Order lines enriched through df.to_dict("records"): a loop over the dicts computes each line's total and a flag, then pd.DataFrame(records) rebuilds the frame.

source: pandas answers and notebooks that avoid iterrows by looping over to_dict("records") ("much
        faster than iterrows"): for rec in records: rec["total"] = rec["unit_price"] *
        rec["quantity"] * (1 - rec["discount"]), then back to a DataFrame for a groupby
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: orders["total"] = orders["unit_price"] * orders["quantity"] * (1 - orders["discount"]); orders["is_large"] = orders["total"] > 500 (the same columns, no dicts)
size: 200,000 order lines of 6 columns
scaled: no
kernel: data
unsure: the rows are dicts, not pandas objects: the cost is converting 200,000 rows to dicts and back and
        the arithmetic per dict; AIP301 names a row loop over a frame and AIP201 arithmetic per item
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(506)
n = 200_000
orders = pd.DataFrame({
    "order_id": np.arange(1_000_000, 1_000_000 + n),
    "customer": np.char.add("C", rng.integers(0, 20_000, n).astype(str)),
    "category": rng.choice(np.array(["books", "toys", "garden", "kitchen", "sports", "beauty"]), n),
    "unit_price": rng.gamma(2.0, 25.0, n).round(2),
    "quantity": rng.integers(1, 12, n),
    "discount": rng.choice([0.0, 0.05, 0.1, 0.2], n, p=[0.6, 0.2, 0.15, 0.05]),
})
# %% cell
records = orders.to_dict("records")  # expect: AIP301|AIP201
for rec in records:  # expect: AIP301|AIP201
    rec["total"] = rec["unit_price"] * rec["quantity"] * (1 - rec["discount"])  # expect: AIP301|AIP201
    rec["is_large"] = rec["total"] > 500  # expect: AIP301|AIP201
enriched = pd.DataFrame(records)  # expect: AIP301|AIP201 ok: AIP303
large_share = enriched.groupby("category")["is_large"].mean()
