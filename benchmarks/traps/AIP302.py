"""AIP302: DataFrame.apply(axis=1) with an arithmetic lambda vs the column expression."""

import numpy as np
import pandas as pd
from _timing import compare, report

ROWS = 100_000
rng = np.random.default_rng(0)
df = pd.DataFrame({"weight": rng.random(ROWS) * 80 + 40, "height": rng.random(ROWS) + 1.2})
slow, fast = compare(
    lambda: df.apply(lambda r: r["weight"] / r["height"] ** 2, axis=1),
    lambda: df["weight"] / df["height"] ** 2,
    repeat=3,
)
report("AIP302", f"BMI on {ROWS:,} rows", "apply(axis=1)", "column expression", slow, fast)
