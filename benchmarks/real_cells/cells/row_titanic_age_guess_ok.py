# ruff: noqa
"""Median ages by sex and class filled in with a 2 x 3 nested loop of vectorised selections.

source: the "Titanic Data Science Solutions" Kaggle notebook (guess_ages filled for each Sex and
        Pclass pair, for train and test combined)
family: row-loop
kind: healthy
verdict: none|AIP907
rewrite: no: six vectorised steps
size: 1,309 passengers, 6 loop iterations
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd
from cell_data import titanic

dataset = titanic(1309, seed=18)
dataset["Sex"] = dataset["Sex"].map({"female": 1, "male": 0}).astype(int)
# %% cell
guess_ages = np.zeros((2, 3))
for i in range(0, 2):
    for j in range(0, 3):
        guess = dataset[(dataset["Sex"] == i) & (dataset["Pclass"] == j + 1)]["Age"].dropna()
        guess_ages[i, j] = int(guess.median() / 0.5 + 0.5) * 0.5
for i in range(0, 2):
    for j in range(0, 3):
        dataset.loc[(dataset.Age.isnull()) & (dataset.Sex == i) & (dataset.Pclass == j + 1), "Age"] = guess_ages[i, j]
dataset["Age"] = dataset["Age"].astype(int)
