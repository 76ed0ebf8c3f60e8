# ruff: noqa
"""Missing LotFrontage filled with its neighbourhood's median, row by row with .loc, train and test together.

source: Kaggle notebooks on the House Prices competition ("house-prices-advanced-regression-
        techniques"): the frontage of a lot is guessed from its Neighborhood's median; beginners
        write it as an index loop with isnull and .loc before learning
        groupby("Neighborhood")["LotFrontage"].transform(lambda x: x.fillna(x.median()))
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: houses["LotFrontage"].fillna(houses["Neighborhood"].map(medians)), and fillna with
         YearBuilt, 0 and "None" for the others
size: 2,919 houses (train and test concatenated, as the notebooks do), 486 frontages missing,
      Alley, FireplaceQu and Fence missing as often as in the competition's data (93, 49, 80 %)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(106)
hoods = np.array(["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst", "Gilbert", "NridgHt", "Sawyer",
                  "NWAmes", "SawyerW", "BrkSide", "Crawfor", "Mitchel", "NoRidge", "Timber", "IDOTRR"])
n = 2_919
houses = pd.DataFrame({
    "Id": np.arange(1, n + 1),
    "Neighborhood": rng.choice(hoods, n),
    "LotArea": rng.gamma(4.0, 2_600, n).round(),
    "LotFrontage": rng.normal(69, 22, n).clip(21, 313).round(),
    "GarageYrBlt": rng.integers(1900, 2010, n).astype(float),
    "YearBuilt": rng.integers(1880, 2010, n),
    "MasVnrArea": rng.gamma(1.0, 100.0, n).round(),
    "BsmtFinSF1": rng.gamma(1.5, 300.0, n).round(),
    "Alley": np.where(rng.random(n) < 0.93, None, rng.choice(["Grvl", "Pave"], n)),
    "FireplaceQu": np.where(rng.random(n) < 0.49, None, rng.choice(["Gd", "TA", "Fa", "Ex", "Po"], n)),
    "Fence": np.where(rng.random(n) < 0.80, None, rng.choice(["MnPrv", "GdWo", "GdPrv", "MnWw"], n)),
})
houses.loc[rng.choice(n, 486, replace=False), "LotFrontage"] = np.nan
houses.loc[rng.choice(n, 159, replace=False), "GarageYrBlt"] = np.nan
houses.loc[rng.choice(n, 23, replace=False), "MasVnrArea"] = np.nan
houses.loc[rng.choice(n, 1, replace=False), "BsmtFinSF1"] = np.nan
# %% cell
medians = houses.groupby("Neighborhood")["LotFrontage"].median()
for i in range(len(houses)):  # expect: AIP301
    if pd.isnull(houses.loc[i, "LotFrontage"]):  # expect: AIP301
        houses.loc[i, "LotFrontage"] = medians[houses.loc[i, "Neighborhood"]]  # expect: AIP301
    if pd.isnull(houses.loc[i, "GarageYrBlt"]):  # expect: AIP301
        houses.loc[i, "GarageYrBlt"] = houses.loc[i, "YearBuilt"]  # expect: AIP301
    for col in ["MasVnrArea", "BsmtFinSF1"]:  # expect: AIP301
        if pd.isnull(houses.loc[i, col]):  # expect: AIP301
            houses.loc[i, col] = 0  # expect: AIP301
    for col in ["Alley", "FireplaceQu", "Fence"]:  # expect: AIP301
        if pd.isnull(houses.loc[i, col]):  # expect: AIP301
            houses.loc[i, col] = "None"  # expect: AIP301
