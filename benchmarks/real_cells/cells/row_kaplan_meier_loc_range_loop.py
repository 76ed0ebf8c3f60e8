# ruff: noqa
"""A Kaplan-Meier survival curve computed by hand: the patients sorted by follow-up time, then a for loop over range(len(df)) reading each row's time and event flag with df.loc[i, col] and multiplying the running survival.

source: survival-analysis tutorials and biostatistics course notebooks that show the product-limit
        estimator before reaching for lifelines (df = df.sort_values("time").reset_index(drop=True);
        at_risk = len(df); s = 1.0; for i in range(len(df)): if df.loc[i, "event"] == 1: s *= 1 -
        1 / at_risk; at_risk -= 1; curve.append((df.loc[i, "time"], s))), on a clinical or churn
        follow-up table
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: per time, the events and the removed counted with groupby("time").agg, at_risk = n minus the cumulative removed before each time, survival = (1 - events / at_risk).cumprod() (the same curve: the per-patient factors of one time multiply to 1 - d/n; equal within 1e-12)
size: 25,000 patients followed up to ten years, 35 % censored
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(701)
n = 25_000
event_time = rng.weibull(1.3, n) * 2_400
censor_time = rng.uniform(200, 3_650, n)
patients = pd.DataFrame({
    "patient_id": np.arange(100_000, 100_000 + n),
    "time": np.ceil(np.minimum(event_time, censor_time)).astype(int),
    "event": (event_time <= censor_time).astype(int),
    "age": rng.integers(35, 90, n),
    "arm": rng.choice(["placebo", "treatment"], n),
})
# %% cell
surv = patients.sort_values(["time", "event"], ascending=[True, False]).reset_index(drop=True)
at_risk = len(surv)
s = 1.0
times, survival = [], []
for i in range(len(surv)):  # expect: AIP301
    if surv.loc[i, "event"] == 1:  # expect: AIP301
        s *= 1 - 1 / at_risk
    at_risk -= 1
    times.append(surv.loc[i, "time"])  # expect: AIP301
    survival.append(s)
km = pd.DataFrame({"time": times, "survival": survival}).groupby("time")["survival"].last()
median_survival = km[km <= 0.5].index.min()
