# ruff: noqa
"""Product names fetched from SQLite with one query per order line (the N+1 queries shape).

source: SQL-with-Python tutorials and notebooks (sqlite3 cursors: for pid in df["product_id"]:
        cur.execute("SELECT name, price FROM products WHERE id = ?", (pid,)).fetchone()),
        before one JOIN or pd.read_sql and merge
family: blocking-io
kind: slow
verdict: AIP907
rewrite: yes: one pd.read_sql("SELECT id, name, price FROM products", con) merged on product_id (the same rows)
size: 200,000 order lines, 5,000 products in an in-memory database
scaled: no
kernel: data
"""
# %% setup
import sqlite3

import numpy as np
import pandas as pd

rng = np.random.default_rng(128)
con = sqlite3.connect(":memory:")
con.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
con.executemany("INSERT INTO products VALUES (?, ?, ?)",
                [(i, f"product {i}", float(p)) for i, p in enumerate(rng.gamma(2.0, 12.0, 5_000).round(2))])
lines = pd.DataFrame({"product_id": rng.integers(0, 5_000, 200_000), "qty": rng.integers(1, 5, 200_000)})
# %% cell
cur = con.cursor()
names, prices = [], []
for pid in lines["product_id"]:  # expect: *
    name, price = cur.execute("SELECT name, price FROM products WHERE id = ?", (int(pid),)).fetchone()  # expect: *
    names.append(name)
    prices.append(price)
lines["name"], lines["price"] = names, prices
# %% teardown
con.close()
