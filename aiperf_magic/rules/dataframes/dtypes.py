"""AIP303 memory-heavy-dtypes: found at run time by the DataFrame profiler; documented here."""

from __future__ import annotations

from ..registry import document

document(
    "AIP303",
    "memory-heavy-dtypes",
    "Columns stored in wider types than their values need",
    """
    ## What it does
    Reported at run time by `%%aiperf` for DataFrames the cell creates or changes: float64
    columns whose values survive float32, int64 columns that fit a smaller integer, and
    object/string columns with few distinct values (a `category` candidate). It cannot be
    found from the code alone, so the static linter never reports it. A frame under 10 MB is kept
    in the report but not shown: what its dtypes would save is too little to matter. Where memory
    was not short during the cell (the frame under a tenth of the memory that stayed available), a
    cast that only rounds the values (float32 for numbers that are not exact in it: returns,
    averages) or that saves less than half the frame is kept in the report, not shown.

    ## Why is this bad?
    pandas defaults to 64-bit numbers and Python string objects. Halving the width halves the
    memory and the bytes each column operation streams through the cache; a category column
    stores each distinct string once plus small integer codes. A 1,000,000-row frame (a
    float, a small integer and a 40-value string column) took 79.2 MiB with default dtypes and
    5.7 MiB as float32/int8/category: 13.8x smaller (`benchmarks/traps/AIP303.py`).

    ## Example
    ```python
    df = pd.read_csv("events.csv")   # price: float64, country: object (40 distinct values)
    ```

    ## Use instead
    ```python
    df = df.astype({"price": "float32", "country": "category"})
    ```

    ## Fix safety
    Unsafe in general: float32 keeps about 7 significant digits, and a category column changes
    how new, unseen values behave. The profiler proposes only casts that keep every value.

    ## References
    - Seed article, chapter 2.4 (the float64/int64/object -> float32/int8/category table).
    """,
)
