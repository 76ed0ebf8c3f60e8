# ruff: noqa
"""Churn scores computed in pandas written back to an SQLite table with one UPDATE ... WHERE id = ? per customer, in a loop over the frame's two columns.

source: notebooks that score customers in pandas and write the scores back to the application's
        database table (for cid, score in zip(df["customer_id"], df["score"]): cur.execute("UPDATE
        customers SET churn_score = ? WHERE id = ?", (score, cid)); con.commit() at the end), as in
        SQL-with-Python tutorials
family: blocking-io
kind: slow
verdict: AIP907
rewrite: yes (about 2x here): cur.executemany("UPDATE customers SET churn_score = ? WHERE id = ?", zip(scores, ids)) (the same rows updated, one statement prepared once), or the scores written to a temporary table and one UPDATE ... FROM joined on id
size: 250,000 customers in an SQLite file
scaled: no
kernel: data
"""
# %% setup
import sqlite3

import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(614)
n = 250_000
db_path = temp_dir() / "crm.sqlite"
con = sqlite3.connect(db_path)
con.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, tenure INTEGER, monthly REAL, churn_score REAL)")
con.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, NULL)",
                [(100_000 + i, f"customer {i}", int(t), float(m)) for i, (t, m) in
                 enumerate(zip(rng.integers(1, 72, n), rng.uniform(20, 120, n).round(2)))])
con.commit()
features = pd.read_sql_query("SELECT id AS customer_id, tenure, monthly FROM customers", con)
z = -1.2 - 0.04 * features["tenure"] + 0.02 * features["monthly"]
features["score"] = (1 / (1 + np.exp(-z))).round(4)
# %% cell
cur = con.cursor()
for cid, score in zip(features["customer_id"], features["score"]):  # expect: AIP402
    cur.execute("UPDATE customers SET churn_score = ? WHERE id = ?", (float(score), int(cid)))  # expect: AIP402
con.commit()
at_risk = con.execute("SELECT COUNT(*) FROM customers WHERE churn_score > 0.5").fetchone()[0]
# %% teardown
con.close()
