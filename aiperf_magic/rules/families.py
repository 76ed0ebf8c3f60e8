"""Every rule family, imported so that its codes register; and AIP000, the code for cells that
cannot be read. The registry imports this module by name (``registry.DOC_PROVIDERS``)."""

from __future__ import annotations

from . import cluster, concurrency, data_loading, dataframes, pytorch, structures
from .registry import document

__all__ = ["cluster", "concurrency", "data_loading", "dataframes", "pytorch", "structures"]

PARSE_ERROR = "AIP000"

document(
    PARSE_ERROR,
    "syntax-error",
    "The cell could not be read, so no other rule looked at it",
    """
    ## What it does
    Reported instead of any other finding when a cell or file is not valid Python (named
    `syntax-error`, with Python's own message and position), or when it is too costly to read
    (named `not-analysed`: a single line over 50,000 characters, an operator chain of more than
    300 terms, code nested too deeply). IPython syntax (`!cmd`, `%magic`, `x?`, top-level
    `await`) is valid here; cells in other languages (`%%bash`, `%%html`) are skipped silently.

    ## Why is this bad?
    It is not a performance trap: it says that aiperf could not check this cell at all, so a
    clean result would have meant nothing. The cell itself may still run (IPython reports real
    syntax errors when it runs the cell).

    ## Example
    ```python
    for x in range(10)
        total += x
    ```

    ## Use instead
    ```python
    for x in range(10):
        total += x
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - Python: "Errors and Exceptions", syntax errors.
    """,
    kind="parse",
)
