"""What AIP301's rewrite of a row loop writes, so that every result keeps the type the loop gave it.

Preconditions, each a difference a user would see (printing a list, ``.append``, ``df.dtypes``):

- **Appended values and sums keep their scalars.** ``iterrows()`` gives each row as a Series of the
  frame's common dtype: when every column is numeric, NumPy scalars of that dtype, and the rewrite
  iterates the column expression's array (``out.extend((df["a"] * 2).to_numpy())``) and sums with
  ``.sum()``; when some column is not numeric the row is object dtype and its values are Python
  objects (``.tolist()``, ``.sum().item()``). ``itertuples()`` gives Python scalars (``.tolist()``,
  ``.sum().item()``); ``df.loc[i, c]`` and ``df.at[i, c]`` give the column's own scalars
  (``.to_numpy()``, ``.sum()``). A loop whose row dtype makes it compute in another dtype than the
  columns do (an int column read from a float64 row) gets no rewrite, and the reason says so.
- **Written columns keep their dtype.** ``.loc``/``.at`` on a column that does not exist yet
  creates it full of NaN: numbers make it float64, True/False make it object. A column that exists
  keeps its dtype. Where the column expression would give another dtype (``np.where(c, 1, 0)`` is
  int64), the rewrite ends in ``.astype(float)``, with a comment saying why; True/False into a new
  column get no rewrite (a column expression gives bool, not an object column).
- **With the run** (``%%aiperf``, after the cell ran), the live frame gives the row dtype and each
  column's dtype. **Without it** (``aiperf lint --fix``) the rewrite is written for the common case:
  a numeric frame (NumPy scalars from ``iterrows``) and a new column (float64: ``.astype(float)``
  unless the code alone shows floats or text). Try says when the data is otherwise.
"""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst

from ..facts import Facts
from ..result_types import NUMPY, PYTHON, attribute_of, dtype_of, is_a, literal_kind, live_value, scalar_kind
from .row_access import RowAccess


class RowResults:
    """The types one row loop's results have: its scalars, its dtypes, the dtype of its columns."""

    def __init__(self, facts: Facts, access: RowAccess, frame: cst.BaseExpression) -> None:
        self.facts, self.access = facts, access
        obj = live_value(facts, frame)
        self.frame = obj if is_a(obj, "pandas.DataFrame") else None
        # iterrows() rows, and df.iloc[i] rows read by column (df.iloc[i]["a"]), hold the row's dtype
        self.row = _row_dtype(self.frame) if self.frame is not None and access.style in ("row", "label") else None

    def scalars(self, node: cst.BaseExpression) -> str:
        """NUMPY or PYTHON: what the loop computed from each row (a numeric frame when the run does
        not say; a ``math`` function makes a Python float of a NumPy scalar)."""
        # iterrows() makes Python objects of an object row; df.iloc[i] keeps each value's NumPy scalar
        object_rows = self.access.style == "row" and self.row is not None and self.row.kind == "O"
        read = PYTHON if self.access.style == "tuple" or object_rows else NUMPY
        kind = scalar_kind(node, lambda n: read if self.access.column(n) is not None else "", self._scalar)
        return kind or NUMPY

    def values(self, node: cst.BaseExpression, vec: str) -> str:
        """What ``out.extend(...)`` takes to append the loop's values as the loop made them."""
        if self.scalars(node) == PYTHON:
            return attribute_of(vec, "tolist()")
        return attribute_of(vec, "to_numpy()") if self._series(node) else vec

    def total(self, node: cst.BaseExpression, vec: str) -> str:
        """What ``total += ...`` adds: the sum as the loop's scalars made it."""
        total = attribute_of(vec, "sum()")
        dtype = self.dtype(node)
        python = self.scalars(node) == PYTHON and (dtype is None or dtype.kind != "O")  # an object sum is Python
        return f"{total}.item()" if python else total

    def refused(self, node: cst.BaseExpression) -> str | None:
        """Why the column expression would compute in another dtype than the loop's rows, or None."""
        if self.row is None or self.row.kind == "O":
            return None
        rows = self.access.style == "row"

        def read(n: cst.CSTNode) -> Any | None:
            if self.access.column(n) is None:
                return None
            return self.row if rows or self.access.by_row(n) else self._read_dtype(n)

        loop = dtype_of(node, read, self._scalar)
        columns = self.dtype(node)
        if loop is None or columns is None or loop == columns:
            return None
        return (
            f"{'iterrows()' if rows else 'df.iloc[i]'} gives each row as {self.row} (the frame's common dtype), "
            f"so the loop computed "
            f"{loop} values where the column expression gives {columns}; cast the columns it reads to "
            f"{self.row} first if that is what you want"
        )

    def column(self, key: str, accessor: str, node: cst.BaseExpression, vec: str) -> tuple[str | None, str]:
        """The right-hand side that gives column ``key`` the dtype the loop left it with (and a
        comment when it casts), or None and why."""
        present, target = self._column_dtype(key)
        dtype = self.dtype(node)
        kind = dtype.kind if dtype is not None else literal_kind(node, self._read_kind)
        if kind == "b" and (not present or str(target) == "object"):
            return None, (
                f"the loop's .{accessor} leaves column {key} holding True/False as objects (dtype object), "
                "where a column expression gives bool; write the bool column yourself if that is what you want"
            )
        if present and str(target) != "float64":
            if target is None or dtype is None or str(dtype) == str(target):
                return vec, ""  # an existing column keeps its dtype: the run shows it the expression's
            return None, (
                f"column {key} is {target}, and the column expression gives {dtype}; end it in "
                f".astype({str(target)!r}) if that is what you want"
            )
        # a new column: .loc fills it with NaN first, so numbers land in a float64 column
        if str(dtype) == "float64" or kind in ("U", None) or (kind == "f" and dtype is None and self.frame is None):
            return vec, ""  # floats or text (without a run, the columns read are taken as float64)
        if kind not in ("i", "u", "b", "f"):
            gives = dtype if dtype is not None else "values that are not numbers"
            return None, f"the loop leaves column {key} float64, and the column expression gives {gives}"
        return f"{attribute_of(vec, 'astype(float)')}  # float64, as the loop's .{accessor} left it", ""

    def dtype(self, node: cst.BaseExpression) -> Any | None:
        """The NumPy dtype of the column expression, from the live frame's columns (None when unknown)."""
        return dtype_of(node, self._read_dtype, self._scalar)

    def _read_dtype(self, node: cst.CSTNode) -> Any | None:
        key = self.access.column(node)
        dtype = self._column_dtype(key)[1] if key is not None else None
        return dtype if is_a(dtype, "numpy.dtype") else None

    def _read_kind(self, node: cst.CSTNode) -> str | None:
        """The kind of values a column read gives: the live column's ("U" for text), "f" without a run."""
        key = self.access.column(node)
        if key is None:
            return None
        if self.frame is None:
            return "f"
        dtype = self._column_dtype(key)[1]
        if dtype is None:
            return "?"
        return "U" if "str" in str(dtype) else getattr(dtype, "kind", "?")

    def _column_dtype(self, key: str) -> tuple[bool, Any | None]:
        """Whether the live frame has column ``key`` (assumed not, without a run), and its dtype."""
        if self.frame is None:
            return False, None
        try:
            label = ast.literal_eval(key)
            if label not in self.frame.columns:
                return False, None
            return True, self.frame.dtypes[label]
        except Exception:  # duplicate labels, odd keys: the run does not say
            return True, None

    def _scalar(self, name: str) -> Any:
        return live_value(self.facts, cst.Name(name))

    def _series(self, node: cst.CSTNode) -> bool:
        """The column expression is a Series (``df["a"] * 2``), not an array (``np.where(...)``)."""
        if self.access.column(node) is not None:
            return True
        if isinstance(node, cst.IfExp):
            return False  # np.where returns an array
        return any(self._series(child) for child in node.children if isinstance(child, cst.BaseExpression))


def _row_dtype(frame: Any) -> Any | None:
    """The dtype of the rows ``iterrows()`` yields: the frame's common dtype (object when some
    column is not numeric), as pandas computes it for ``.values``."""
    try:
        return frame.iloc[:0].to_numpy().dtype
    except Exception:  # a frame subclass that refuses: the run does not say
        return None
