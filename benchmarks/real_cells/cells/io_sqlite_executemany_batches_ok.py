# ruff: noqa
"""A CSV of readings loaded into SQLite in batches of 5,000 rows with executemany, committed once: the loop is over batches, not rows.

source: data-engineering notebooks that load a CSV into SQLite with the csv module (reader =
        csv.reader(f); next(reader); while batch := list(islice(reader, 5000)):
        conn.executemany("INSERT INTO ...", batch); conn.commit() once at the end), then query
        the table with SQL
family: blocking-io
kind: healthy
verdict: AIP907|AIP903|none
rewrite: no: rows are sent in batches inside one transaction; the disk is written once, at the commit
size: 200,000 readings (40 batches)
scaled: no
kernel: data
"""
# %% setup
import csv
import sqlite3
from itertools import islice

from cell_data import temp_dir, write_csv

folder = temp_dir()
csv_path = write_csv(folder / "readings.csv", 200_000, seed=425)
db_path = folder / "readings.db"
# %% cell
conn = sqlite3.connect(db_path)
conn.execute("DROP TABLE IF EXISTS readings")
conn.execute("CREATE TABLE readings (id INTEGER, sensor INTEGER, value REAL, flag TEXT, note TEXT)")
with open(csv_path, newline="", encoding="utf-8") as fh:
    reader = csv.reader(fh)
    next(reader)
    while batch := list(islice(reader, 5_000)):
        conn.executemany("INSERT INTO readings VALUES (?, ?, ?, ?, ?)", batch)
conn.commit()
by_sensor = conn.execute("SELECT sensor, COUNT(*), AVG(value) FROM readings GROUP BY sensor").fetchall()
conn.close()
