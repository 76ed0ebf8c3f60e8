# ruff: noqa
"""Email domains taken with Series.apply(lambda e: e.split("@")[1].lower()): string work that the .str accessor also does one value at a time.

source: customer-data cleaning notebooks (users["domain"] = users["email"].apply(lambda x:
        x.split("@")[1])), then value_counts of the domains; on a column of Python strings the
        .str.split("@").str[1].str.lower() chain loops over the values too, three times
family: row-apply
kind: healthy
verdict: AIP907|none
rewrite: no: splitting strings has no whole-column form on a column of Python strings; the .str chain gives the same strings no faster
size: 100,000 users
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(424)
n = 100_000
domains = np.array(["gmail.com", "Yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me",
                    "aol.com", "GMX.de", "mail.ru", "example.org", "company.co.uk", "univ.edu"])
first = np.array(["anna", "ben", "carla", "dev", "emma", "farid", "gia", "hugo", "ines", "jon", "kai", "lena"])
users = pd.DataFrame({
    "user_id": np.arange(n),
    "email": [f"{first[a]}.{b}@{domains[c]}" for a, b, c in
              zip(rng.integers(0, 12, n), rng.integers(0, 10_000, n), rng.integers(0, 12, n))],
    "signup_year": rng.integers(2012, 2025, n),
})
# %% cell
users["domain"] = users["email"].apply(lambda e: e.split("@")[1].lower())  # ok: AIP303
top_domains = users["domain"].value_counts().head(10)
