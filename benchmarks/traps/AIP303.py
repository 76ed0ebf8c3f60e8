"""AIP303: memory of default dtypes vs downcast numbers and a category column."""

import numpy as np
import pandas as pd

ROWS = 1_000_000
rng = np.random.default_rng(0)
countries = np.array([f"country-{i:02d}" for i in range(40)], dtype=object)
df = pd.DataFrame(
    {"price": rng.random(ROWS), "units": rng.integers(0, 100, ROWS), "country": countries[rng.integers(0, 40, ROWS)]}
)
small = df.astype({"price": "float32", "units": "int8", "country": "category"})
before = df.memory_usage(deep=True).sum()
after = small.memory_usage(deep=True).sum()
print(
    f"AIP303: {ROWS:,} rows: default dtypes {before / 2**20:.1f} MiB, float32/int8/category "
    f"{after / 2**20:.1f} MiB -> {before / after:.1f}x smaller"
)
