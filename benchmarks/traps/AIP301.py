"""AIP301: iterrows over a frame vs the same arithmetic as a column expression."""

import numpy as np
import pandas as pd
from _timing import compare, report

ROWS = 100_000
rng = np.random.default_rng(0)
df = pd.DataFrame({"price": rng.random(ROWS), "qty": rng.integers(1, 10, ROWS)})


def rows() -> list:
    return [row["price"] * row["qty"] for _, row in df.iterrows()]


slow, fast = compare(rows, lambda: df["price"] * df["qty"], repeat=3)
report("AIP301", f"price * qty on {ROWS:,} rows", "iterrows", "column expression", slow, fast)
print(f"AIP301: iterrows {ROWS / slow:,.0f} rows/s, column expression {ROWS / fast:,.0f} rows/s")
