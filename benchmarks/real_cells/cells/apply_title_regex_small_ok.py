# ruff: noqa
"""Series.apply of a regex title extractor on the Titanic's 891 names, then a crosstab.

source: Titanic notebooks on Kaggle (a get_title helper applied to Name, then pd.crosstab of Title
        by Sex)
family: row-apply
kind: healthy
verdict: none|AIP907
rewrite: no: 891 strings; str.extract is no faster in a way that matters
size: 891 passengers
scaled: no
kernel: data
"""
# %% setup
import re

import pandas as pd
from cell_data import titanic

train = titanic(891, seed=29)


def get_title(name):
    match = re.search(r" ([A-Za-z]+)\.", name)
    return match.group(1) if match else ""
# %% cell
train["Title"] = train["Name"].apply(get_title)
pd.crosstab(train["Title"], train["Sex"])
