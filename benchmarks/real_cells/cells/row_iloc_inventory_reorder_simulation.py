# ruff: noqa
"""A reorder-point inventory simulation stepped hour by hour over a DataFrame: stock, sales, orders and future arrivals read and written with df.iloc[i, col] at every step.

source: operations-research and supply-chain notebooks (an (s, Q) policy simulated on a demand
        history: for i in range(len(sim)): stock += sim.iloc[i, arr]; sold = min(stock,
        sim.iloc[i, dem]); ...; if stock + pending < s: sim.iloc[i + lead, arr] += Q), before
        the same loop over NumPy arrays
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: the same loop over NumPy arrays (demand = sim["demand"].to_numpy(), arrivals a float array, sold/stock/ordered preallocated) and the columns assigned once after it (identical values); each step needs the last, so the loop stays, without the per-cell pandas indexing
size: 2,208 hours (three months) of one SKU's demand
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(706)
hours = pd.date_range("2023-01-01", periods=2_208, freq="h")
rate = 6 + 4 * np.sin(2 * np.pi * (hours.hour.to_numpy() - 8) / 24).clip(0) + 2 * (hours.dayofweek.to_numpy() >= 5)
demand = pd.DataFrame({"ts": hours, "demand": rng.poisson(rate).astype(float)})
reorder_point, order_qty, lead_time = 180.0, 600.0, 36
# %% cell
sim = demand.copy()
sim["arrivals"] = 0.0
sim["sold"] = 0.0
sim["stock"] = 0.0
sim["ordered"] = 0.0
col = {c: sim.columns.get_loc(c) for c in ["demand", "arrivals", "sold", "stock", "ordered"]}
stock, pending = 400.0, 0.0
for i in range(len(sim)):  # expect: AIP301
    arrived = sim.iloc[i, col["arrivals"]]  # expect: AIP301
    stock += arrived
    pending -= arrived
    sold = min(stock, sim.iloc[i, col["demand"]])  # expect: AIP301
    stock -= sold
    sim.iloc[i, col["sold"]] = sold  # expect: AIP301
    sim.iloc[i, col["stock"]] = stock  # expect: AIP301
    if stock + pending < reorder_point and i + lead_time < len(sim):
        sim.iloc[i + lead_time, col["arrivals"]] += order_qty  # expect: AIP301
        sim.iloc[i, col["ordered"]] = order_qty  # expect: AIP301
        pending += order_qty
fill_rate = sim["sold"].sum() / sim["demand"].sum()
