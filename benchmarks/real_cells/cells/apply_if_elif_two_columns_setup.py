# ruff: noqa
"""A grade function from an earlier cell with if/elif on two columns, applied row-wise here.

source: course notebooks on student-performance data (a letter grade from the score and the
        attendance rate, the issue's "if/elif on two columns")
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: np.select with the same conditions in order
size: 60,000 students
scaled: no
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import rng

r = rng(22)
students = pd.DataFrame({"score": r.normal(72, 12, 60_000).clip(0, 100).round(1),
                         "attendance": r.beta(8, 2, 60_000).round(3)})


def grade(row):
    if row["score"] >= 90 and row["attendance"] >= 0.8:
        return "A"
    elif row["score"] >= 75:
        return "B"
    elif row["score"] >= 60 or row["attendance"] >= 0.95:
        return "C"
    else:
        return "F"
# %% cell
students["grade"] = students.apply(grade, axis=1)  # expect: AIP302
students["grade"].value_counts()
