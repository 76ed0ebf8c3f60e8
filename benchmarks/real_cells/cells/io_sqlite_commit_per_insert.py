# ruff: noqa
"""Rows loaded into an SQLite file with one INSERT and one commit each: every commit waits for the disk.

source: ETL scripts and SQL-with-Python tutorials that write rows as they are produced (for row in
        rows: cur.execute("INSERT INTO readings VALUES (?, ?, ?)", row); conn.commit()), before
        executemany and one commit (the sqlite3 documentation's own example uses executemany)
family: blocking-io
kind: slow
verdict: AIP903|AIP907
rewrite: yes: cur.executemany(...) over the rows, then one conn.commit() (the same table)
size: 3,000 sensor readings into a database file
scaled: no
kernel: data
"""
# %% setup
import sqlite3

import numpy as np

from cell_data import temp_dir

rng = np.random.default_rng(213)
rows = [(int(i), int(s), float(v)) for i, s, v in zip(range(3_000), rng.integers(0, 40, 3_000),
                                                      rng.normal(20, 4, 3_000).round(2))]
db_path = temp_dir() / "readings.db"
# %% cell
conn = sqlite3.connect(db_path)
cur = conn.cursor()
cur.execute("DROP TABLE IF EXISTS readings")
cur.execute("CREATE TABLE readings (id INTEGER, sensor INTEGER, value REAL)")
for row in rows:  # expect: *
    cur.execute("INSERT INTO readings VALUES (?, ?, ?)", row)
    conn.commit()  # expect: *
stored = cur.execute("SELECT COUNT(*) FROM readings").fetchone()[0]
conn.close()
