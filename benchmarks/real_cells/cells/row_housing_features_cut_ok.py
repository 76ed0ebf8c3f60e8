# ruff: noqa
"""The California housing features of a machine-learning book: ratios of columns, income bands, means by band.

source: Hands-On Machine Learning (ageron/handson-ml2), chapter 2 "End-to-end Machine Learning
        Project": housing["income_cat"] = pd.cut(housing["median_income"], bins=[0., 1.5, 3.0,
        4.5, 6., np.inf], labels=[1, 2, 3, 4, 5]), rooms_per_household and the other
        attribute combinations, then the proportions per income category
family: row-loop
kind: healthy
verdict: none|AIP907
rewrite: no: every step is already a column operation
size: 20,640 districts
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(109)
n = 20_640
households = rng.gamma(3.0, 170.0, n).round() + 1
housing = pd.DataFrame({
    "median_income": rng.gamma(4.0, 0.97, n).round(4),
    "total_rooms": (households * rng.normal(5.4, 1.2, n).clip(1)).round(),
    "total_bedrooms": (households * rng.normal(1.1, 0.2, n).clip(0.3)).round(),
    "population": (households * rng.normal(3.0, 0.8, n).clip(0.5)).round(),
    "households": households,
    "median_house_value": rng.gamma(3.5, 59_000, n).clip(15_000, 500_001).round(),
})
# %% cell
housing["income_cat"] = pd.cut(housing["median_income"], bins=[0., 1.5, 3.0, 4.5, 6., np.inf],
                               labels=[1, 2, 3, 4, 5])
housing["rooms_per_household"] = housing["total_rooms"] / housing["households"]
housing["bedrooms_per_room"] = housing["total_bedrooms"] / housing["total_rooms"]
housing["population_per_household"] = housing["population"] / housing["households"]
proportions = housing["income_cat"].value_counts() / len(housing)
by_band = housing.groupby("income_cat", observed=True)[["median_house_value", "rooms_per_household"]].mean()
corr = housing.drop(columns="income_cat").corr()["median_house_value"].sort_values(ascending=False)
