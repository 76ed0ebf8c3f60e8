# ruff: noqa
"""Implied volatilities of an option chain solved one option at a time: a list comprehension calls a scalar Newton-Raphson built on the math module.

source: quantitative-finance notebooks that back out implied volatility by hand (a Black-Scholes
        call price and vega written with math.log, math.exp and an erf-based normal CDF; an
        implied_vol(price, S, K, T, r) doing Newton steps until the price matches), applied to
        every quote of a chain with a comprehension over zipped columns before plotting the smile
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the Newton steps on whole arrays (price and vega with np.log, np.exp and scipy.special.ndtr), all quotes iterated at once with a mask of those not yet converged (the same volatilities to the tolerance)
size: 60,000 quotes, about 4 Newton steps each
scaled: no
kernel: data
unsure: each element's solver is itself a short recurrence (Newton steps), and a vectorised version iterates
        all quotes together rather than being one expression
"""
# %% setup
import math

import numpy as np
import pandas as pd

rng = np.random.default_rng(405)
n = 60_000


def norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def bs_call(S, K, T, r, sigma):
    d1 = (math.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    return S * norm_cdf(d1) - K * math.exp(-r * T) * norm_cdf(d2)


def vega(S, K, T, r, sigma):
    d1 = (math.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * math.sqrt(T))
    return S * math.exp(-0.5 * d1 * d1) / math.sqrt(2 * math.pi) * math.sqrt(T)


def implied_vol(price, S, K, T, r, sigma=0.3, tol=1e-8, max_iter=50):
    for _ in range(max_iter):
        diff = bs_call(S, K, T, r, sigma) - price
        if abs(diff) < tol:
            return sigma
        sigma -= diff / vega(S, K, T, r, sigma)
    return sigma


spot = 100.0
strikes = np.round(spot * rng.uniform(0.85, 1.15, n), 1)
expiries = rng.uniform(0.25, 1.5, n).round(3)
true_vol = 0.2 + 0.4 * (strikes / spot - 1.0) ** 2 + rng.uniform(0, 0.05, n)
chain = pd.DataFrame({"strike": strikes, "T": expiries, "spot": spot})
chain["price"] = [bs_call(spot, k, t, 0.03, v) for k, t, v in zip(strikes, expiries, true_vol)]
r = 0.03
# %% cell
chain["iv"] = [implied_vol(p, s, k, t, r)  # expect: AIP201
               for p, s, k, t in zip(chain["price"], chain["spot"], chain["strike"], chain["T"])]  # expect: AIP201
chain["moneyness"] = (chain["strike"] / chain["spot"]).round(2)
smile = chain.groupby("moneyness")["iv"].mean()
