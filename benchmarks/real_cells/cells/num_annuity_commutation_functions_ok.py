# ruff: noqa
"""Actuarial present values of temporary life annuities for a whole portfolio from commutation functions: the table's D and N columns computed once, every policy's value one array expression.

source: actuarial-science course notebooks (commutation functions D_x = v^x l_x and N_x = sum of
        D from x on, then the annuity-due a_x:n = (N_x - N_{x+n}) / D_x for all policies with
        fancy indexing), on a pension or life portfolio
family: numeric-loop
kind: healthy
verdict: none|AIP907
rewrite: no: the table is built once with cumprod and cumsum and the policies are one indexed expression
size: 1,000,000 policies, ages 30 to 80, terms of 5 to 40 years
scaled: yes: a national insurer's in-force book
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(714)
ages_table = np.arange(0, 131)
qx = np.minimum(0.0005 + 0.00003 * np.exp(0.095 * ages_table), 1.0)
n_pol = 1_000_000
policies = pd.DataFrame({"policy_id": np.arange(n_pol), "age": rng.integers(30, 81, n_pol),
                         "term": rng.integers(5, 41, n_pol), "annual_payment": rng.choice([1_200, 2_400, 6_000], n_pol)})
i_rate = 0.025
# %% cell
v = 1 / (1 + i_rate)
lx = np.concatenate([[1.0], np.cumprod(1 - qx)])
D = v ** np.arange(len(lx)) * lx
N = np.cumsum(D[::-1])[::-1]
ages = policies["age"].to_numpy()
terms = policies["term"].to_numpy()
policies["apv"] = policies["annual_payment"].to_numpy() * (N[ages] - N[ages + terms]) / D[ages]
reserve = policies["apv"].sum()
by_age_band = policies.groupby(pd.cut(policies["age"], [29, 40, 50, 60, 70, 80]), observed=True)["apv"].mean()
