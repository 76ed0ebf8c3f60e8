# ruff: noqa
"""Invoice amounts converted to euros with df.apply(lambda row: row["amount"] * rates[row["currency"]], axis=1): a Series built and a dict read for every invoice.

source: finance and e-commerce notebooks that normalise multi-currency transactions with a dict
        of exchange rates (rates = {"USD": 0.92, ...}; df["amount_eur"] = df.apply(lambda r:
        r["amount"] * rates[r["currency"]], axis=1)), then revenue by country and month
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: invoices["amount"] * invoices["currency"].map(rates) (the same products: one map and one multiplication over the columns)
size: 80,000 invoices in 9 currencies
scaled: no
kernel: data
unsure: besides its arithmetic the lambda reads a dict with a column's value (the whole-column form
        needs Series.map); AIP302 names a row-wise apply of vectorisable work
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(501)
n = 80_000
rates = {"USD": 0.92, "EUR": 1.0, "GBP": 1.17, "JPY": 0.0062, "CHF": 1.04, "SEK": 0.087, "PLN": 0.23,
         "CAD": 0.68, "AUD": 0.61}
currencies = np.array(list(rates))
countries = np.array(["US", "DE", "GB", "JP", "CH", "SE", "PL", "CA", "AU", "FR", "NL", "ES"])
currency = currencies[rng.choice(9, n, p=[0.34, 0.28, 0.1, 0.06, 0.04, 0.04, 0.04, 0.05, 0.05])]
scale = np.where(currency == "JPY", 150.0, 1.0)
invoices = pd.DataFrame({
    "invoice_id": np.arange(310_000, 310_000 + n),
    "country": countries[rng.integers(0, len(countries), n)],
    "month": rng.integers(1, 13, n),
    "currency": currency,
    "amount": (rng.gamma(2.0, 60.0, n) * scale).round(2),
})
# %% cell
invoices["amount_eur"] = invoices.apply(lambda row: row["amount"] * rates[row["currency"]], axis=1)  # expect: AIP302 ok: AIP303
revenue = invoices.groupby(["country", "month"])["amount_eur"].sum().unstack()
