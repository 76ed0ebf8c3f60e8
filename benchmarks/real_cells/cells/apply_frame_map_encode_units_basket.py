# ruff: noqa
"""A basket matrix of quantities turned into 0/1 with an element-wise DataFrame.map of a Python function.

source: market-basket-analysis notebooks after Chris Moffitt's "Introduction to Market Basket
        Analysis in Python" (Practical Business Python, the UCI Online Retail data with mlxtend's
        apriori: basket = df.groupby(["InvoiceNo", "Description"])["Quantity"].sum().unstack()
        .fillna(0); def encode_units(x): if x <= 0: return 0 / if x >= 1: return 1;
        basket_sets = basket.applymap(encode_units)), written with DataFrame.map, applymap's
        name since pandas 2.1
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: (basket >= 1).astype(int) (the same 0/1 matrix: the quantities are whole numbers)
size: 1,200 invoices x 1,500 products
scaled: yes: the notebooks keep one country's invoices (France: about 400 x 1,560); here three
        countries' worth, the size a basket of the EU invoices takes
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(201)
quantities = np.where(rng.random((1_200, 1_500)) < 0.02, rng.integers(1, 25, (1_200, 1_500)), 0)
basket = pd.DataFrame(quantities.astype(float), index=[f"5{i:05d}" for i in range(1_200)],
                      columns=[f"PRODUCT {j}" for j in range(1_500)])


def encode_units(x):
    if x <= 0:
        return 0
    if x >= 1:
        return 1
# %% cell
basket_sets = basket.map(encode_units)  # expect: AIP302 ok: AIP303
support = basket_sets.mean().sort_values(ascending=False).head(20)
