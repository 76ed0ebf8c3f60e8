# ruff: noqa
"""Actuarial present values of temporary life annuities for a portfolio of policies: for each policy, a loop over its payment years discounting each payment and multiplying the survival probability from a mortality table.

source: actuarial-science course notebooks and pension-valuation scripts (a Gompertz-Makeham or
        national life table as qx by age; for k in range(len(policies)): surv = 1.0; for t in
        range(term[k]): apv += pay * v ** t * surv; surv *= 1 - qx[age + t]), before commutation
        functions
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: commutation functions once for the table (l = cumprod of 1 - qx with l_0 = 1; D = v ** x * l; N = reversed cumsum of D), then apv = pay * (N[age] - N[age + term]) / D[age] for all policies in one expression (equal within 1e-9 relative)
size: 15,000 policies, ages 30 to 80, terms of 5 to 40 years (about 340,000 policy-years)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(713)
ages_table = np.arange(0, 131)
qx = np.minimum(0.0005 + 0.00003 * np.exp(0.095 * ages_table), 1.0)
n_pol = 15_000
policies = pd.DataFrame({"policy_id": np.arange(n_pol), "age": rng.integers(30, 81, n_pol),
                         "term": rng.integers(5, 41, n_pol), "annual_payment": rng.choice([1_200, 2_400, 6_000], n_pol)})
i_rate = 0.025
# %% cell
v = 1 / (1 + i_rate)
ages = policies["age"].to_numpy()
terms = policies["term"].to_numpy()
pays = policies["annual_payment"].to_numpy()
apv = np.zeros(len(policies))
for k in range(len(policies)):  # expect: AIP201
    surv = 1.0
    total = 0.0
    for t in range(terms[k]):  # expect: AIP201
        total += pays[k] * v ** t * surv  # expect: AIP201
        surv *= 1 - qx[ages[k] + t]  # expect: AIP201
    apv[k] = total
policies["apv"] = apv
reserve = apv.sum()
