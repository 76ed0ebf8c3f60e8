# ruff: noqa
"""A Sales column built by walking the orders with iterrows and appending price times quantity.

source: Keith Galli's "Solving real world data science tasks with Python Pandas" sales analysis
        (a year of electronics-shop orders, about 186,000 lines), where learners' versions fill the
        Sales column with an iterrows loop before the course shows the column product
family: row-loop
kind: slow
verdict: AIP907
rewrite: yes: all_data["Sales"] = all_data["qty"] * all_data["price"]
size: 20,000 order lines
scaled: yes: the course's data has about 186,000 lines (iterrows over them takes about 10 s)
kernel: data
"""
# %% setup
from cell_data import sales

all_data = sales(20_000, seed=186)
# %% cell
sales_values = []
for index, row in all_data.iterrows():  # expect: AIP301
    sales_values.append(row["qty"] * row["price"])  # expect: AIP301
all_data["Sales"] = sales_values
