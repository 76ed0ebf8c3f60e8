# ruff: noqa
"""Monthly revenue by region read from SQLite with one pd.read_sql_query: the database joins 300,000 orders to their customers and groups them, pandas receives 60 rows.

source: SQL-in-notebooks tutorials (the Chinook and Northwind sample databases, data-analyst
        courses) that push the join and the aggregation into one query (pd.read_sql_query("SELECT
        ... FROM orders JOIN customers ... GROUP BY region, month", conn)) and pivot the result
family: blocking-io
kind: healthy
verdict: AIP907|AIP903|none
rewrite: no: one query; the join and the grouping run inside SQLite over an indexed key, and only the aggregated rows cross into Python
size: 300,000 orders, 20,000 customers in 5 regions, 12 months
scaled: no
kernel: data
"""
# %% setup
import sqlite3

import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(523)
db_path = temp_dir() / "shop.db"
with sqlite3.connect(db_path) as setup_conn:
    setup_conn.execute("CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, region TEXT, segment TEXT)")
    setup_conn.execute("CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, order_date TEXT, amount REAL)")
    regions = ["North", "South", "East", "West", "Central"]
    setup_conn.executemany("INSERT INTO customers VALUES (?, ?, ?)",
                           [(i, regions[i % 5], ["consumer", "corporate", "home office"][i % 3]) for i in range(20_000)])
    days = pd.date_range("2023-01-01", "2023-12-31").strftime("%Y-%m-%d").to_numpy()
    setup_conn.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)",
                           zip(range(300_000), rng.integers(0, 20_000, 300_000).tolist(),
                               days[rng.integers(0, len(days), 300_000)].tolist(),
                               rng.gamma(2.0, 40.0, 300_000).round(2).tolist()))
    setup_conn.execute("CREATE INDEX idx_orders_customer ON orders (customer_id)")
# %% cell
conn = sqlite3.connect(db_path)
query = """
SELECT c.region, substr(o.order_date, 1, 7) AS month, COUNT(*) AS n_orders, SUM(o.amount) AS revenue
FROM orders AS o JOIN customers AS c ON c.customer_id = o.customer_id
GROUP BY c.region, month
"""
monthly = pd.read_sql_query(query, conn)
conn.close()
revenue_table = monthly.pivot(index="month", columns="region", values="revenue")
