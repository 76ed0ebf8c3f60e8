# ruff: noqa
"""Letter grades from a score column with Series.apply of a function with an if/elif ladder.

source: pandas course exercises on apply (def grade(score): if score >= 90: return "A" elif ...
        then df["grade"] = df["score"].apply(grade)), on a table of exam results
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: pd.cut(df["score"], [-1, 59, 69, 79, 89, 100], labels=list("FDCBA")) or np.select
size: 2,000,000 exam scores
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(90)
df = pd.DataFrame({"student": np.arange(2_000_000), "score": rng.integers(0, 101, 2_000_000)})


def grade(score):
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    else:
        return "F"
# %% cell
df["grade"] = df["score"].apply(grade)  # expect: AIP302
