"""Lookups in another frame by a row's key, inside a row loop: ``products.loc[order["product_id"],
"unit_price"]`` is ``orders["product_id"].map(products["unit_price"])``: for each row, the value of
that column at the label the row's key names, as one ``map`` over the key column.

Only where the run shows both frames: the other frame's index has no repeated label (``.loc`` with a
repeated label gives a Series per row, ``map`` raises), and every key of the looping frame is in it
(``.loc`` raises ``KeyError`` on a missing one, ``map`` gives NaN). The column is a constant label.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

import libcst as cst

from ..elementwise import Subst


def with_lookups(subst: Subst, frame: str, namespace: Mapping[str, Any] | None, code: Any) -> Subst:
    """``subst`` that also rewrites ``other.loc[row[key], "col"]`` (and ``.at``) into
    ``frame[key].map(other["col"])``."""
    if namespace is None:
        return subst

    def lookup(node: cst.CSTNode) -> str | None:
        found = subst(node)
        if found is not None or not isinstance(node, cst.Subscript) or len(node.slice) != 2:
            return found
        owner = node.value
        if not (isinstance(owner, cst.Attribute) and owner.attr.value in ("loc", "at")
                and isinstance(owner.value, cst.Name) and owner.value.value != frame):
            return None
        key, column = (s.slice.value if isinstance(s.slice, cst.Index) else None for s in node.slice)
        if key is None or not isinstance(column, (cst.SimpleString, cst.Integer)):
            return None
        keys = subst(key)  # the row's key column, as a whole column
        if keys is None or not keys.startswith(f"{frame}["):
            return None
        other, live = owner.value.value, namespace.get(frame)
        table = namespace.get(other)
        if not _covers(table, live, keys[len(frame) + 1:-1], code(column)):
            return None
        return f"{keys}.map({other}[{code(column)}])"

    return lookup


def _covers(table: Any, frame: Any, key: str, column: str) -> bool:
    """The lookup table has unique labels and every key of the frame among them, and the column."""
    try:
        key_label, column_label = ast.literal_eval(key), ast.literal_eval(column)
        index = table.index
        return bool(index.is_unique and column_label in table.columns
                    and frame[key_label].isin(index).all())
    except Exception:  # not frames, labels that are not literals, columns absent: no lookup
        return False
