# ruff: noqa
"""A questionnaire scored with item weights by df.apply(lambda row: np.dot(row[item_cols], weights), axis=1): a Series built, sliced and dotted for every respondent.

source: survey-analysis and psychometrics notebooks (and credit-scorecard ones) that compute a
        weighted scale score per respondent (weights = np.array([...]); df["score"] =
        df.apply(lambda row: np.dot(row[items], weights), axis=1)), then standardise it and
        compare groups
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: responses[item_cols].to_numpy() @ weights (the same weighted sums up to the order of the additions)
size: 2,000 respondents, 12 Likert items
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(502)
n = 2_000
item_cols = [f"q{i:02d}" for i in range(1, 13)]
trait = rng.normal(0, 1, n)
answers = np.clip(np.rint(3 + trait[:, None] * rng.uniform(0.5, 1.2, 12) + rng.normal(0, 0.8, (n, 12))), 1, 5)
responses = pd.DataFrame(answers, columns=item_cols)
responses.insert(0, "age", rng.integers(18, 80, n).astype(float))
responses.insert(0, "respondent", np.arange(n).astype(float))
weights = np.array([0.9, 0.7, 1.1, 0.8, -0.6, 1.0, 0.75, 0.85, -0.5, 1.2, 0.95, 0.65])
# %% cell
responses["score"] = responses.apply(lambda row: np.dot(row[item_cols], weights), axis=1)  # expect: AIP302
responses["z"] = (responses["score"] - responses["score"].mean()) / responses["score"].std()
by_age = responses.groupby(pd.cut(responses["age"], [17, 30, 45, 60, 80]), observed=True)["z"].mean()
