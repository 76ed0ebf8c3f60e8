# ruff: noqa
"""Messy country names cleaned with one Series.replace per entry of a mapping dict: a pass over the whole column for each key.

source: data-cleaning notebooks that standardise the spellings of a categorical column from a
        hand-written dict (for old, new in country_fixes.items(): df["country"] =
        df["country"].replace(old, new)), e.g. survey and sales exports with "USA", "U.S.A.",
        "united states " for the same country
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: df["country"] = df["country"].map(country_fixes).fillna(df["country"]) (the same strings; note that one df["country"].replace(country_fixes) is no faster: it still passes once per key)
size: 100,000 survey answers, 160 spellings of 40 countries
scaled: no
kernel: data
unsure: no rule of the catalog names a whole-column pass per key; any code on these lines is accepted
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(311)
countries = [f"Country {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(40)]
country_fixes = {}
for c in countries:
    for messy in (c.upper(), c.lower(), c + " ", c.replace(" ", "_")):
        country_fixes[messy] = c
answers = rng.choice(np.array(list(country_fixes) + countries, dtype=object), 100_000)
survey = pd.DataFrame({"respondent": np.arange(100_000), "country": answers,
                       "score": rng.integers(1, 11, 100_000)})
# %% cell
for old, new in country_fixes.items():  # expect: *
    survey["country"] = survey["country"].replace(old, new)  # expect: *
by_country = survey.groupby("country")["score"].mean()
