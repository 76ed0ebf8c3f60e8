"""AIP203: growing a DataFrame row by row with pd.concat vs collecting rows and building once."""

import pandas as pd
from _timing import compare, report

ROWS = 2_000


def grow() -> pd.DataFrame:
    df = pd.DataFrame({"step": [], "loss": []})
    for i in range(ROWS):
        df = pd.concat([df, pd.DataFrame({"step": [i], "loss": [1.0 / (i + 1)]})], ignore_index=True)
    return df


def collect() -> pd.DataFrame:
    rows = [{"step": i, "loss": 1.0 / (i + 1)} for i in range(ROWS)]
    return pd.DataFrame(rows)


slow, fast = compare(grow, collect, repeat=3)
report("AIP203", f"build a {ROWS:,}-row frame", "pd.concat per row", "one DataFrame(rows)", slow, fast)
