# ruff: noqa
"""A Kaplan-Meier survival curve per treatment arm from grouped counts: events and removals counted per time with groupby, the number at risk from a cumulative sum, the survival a cumprod.

source: survival-analysis notebooks that write the product-limit estimator as a life table
        (table = df.groupby("time").agg(events=("event", "sum"), removed=("event", "size"));
        table["at_risk"] = n - table["removed"].cumsum().shift(fill_value=0);
        table["survival"] = (1 - table["events"] / table["at_risk"]).cumprod()), once per arm
family: row-loop
kind: healthy
verdict: none|AIP907
rewrite: no: each step is a grouped count or a whole-column expression
size: 400,000 patients followed up to ten years in two arms
scaled: yes: a registry-sized follow-up table
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(702)
n = 400_000
arm = rng.choice(["placebo", "treatment"], n)
event_time = rng.weibull(1.3, n) * np.where(arm == "treatment", 2_900, 2_400)
censor_time = rng.uniform(200, 3_650, n)
patients = pd.DataFrame({
    "patient_id": np.arange(n),
    "time": np.ceil(np.minimum(event_time, censor_time)).astype(int),
    "event": (event_time <= censor_time).astype(int),
    "arm": arm,
})
# %% cell
curves = {}
for name, group in patients.groupby("arm"):
    table = group.groupby("time").agg(events=("event", "sum"), removed=("event", "size"))
    table["at_risk"] = len(group) - table["removed"].cumsum().shift(fill_value=0)
    table["survival"] = (1 - table["events"] / table["at_risk"]).cumprod()
    curves[name] = table["survival"]
km = pd.DataFrame(curves)
median_survival = {name: curve[curve <= 0.5].index.min() for name, curve in curves.items()}
