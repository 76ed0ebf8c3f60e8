"""Shared by the pandas rules."""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell


def is_constant(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.SimpleString, cst.Integer))


class RowAccess:
    """Maps one row's cell accesses (``row["a"]``, ``row.a``, ``df.loc[i, "a"]``) to whole columns."""

    def __init__(self, cell: ParsedCell, frame: str, style: str, row: str | None, index: str | None) -> None:
        self.cell, self.frame, self.style, self.row, self.index = cell, frame, style, row, index
        self.read: set[str] = set()

    def column(self, node: cst.CSTNode) -> str | None:
        """The column key code this node reads for the current row, if it is such an access."""
        c = self.cell
        if (
            self.style in ("row", "tuple")
            and isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == self.row
        ):
            # row.Index / row.name are the label, not a column; row.sum() is a method
            if node.attr.value in ("Index", "name") or isinstance(c.parent(node), cst.Call):
                return None
            return repr(node.attr.value)
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = node.slice[0].slice.value
            if (
                self.style == "row"
                and isinstance(node.value, cst.Name)
                and node.value.value == self.row
                and is_constant(key)
            ):
                return c.code(key)
            # df.iloc[i]["a"] in range(len(df)): the i-th row's cell, by position
            inner = node.value
            if (
                self.style == "label"
                and is_constant(key)
                and isinstance(inner, cst.Subscript)
                and isinstance(inner.value, cst.Attribute)
                and inner.value.attr.value == "iloc"
                and c.code(inner.value.value) == self.frame
                and len(inner.slice) == 1
                and isinstance(inner.slice[0].slice, cst.Index)
                and c.code(inner.slice[0].slice.value) == self.index
            ):
                return c.code(key)
            # df["a"][i]
            if (
                self.style in ("label", "index")
                and isinstance(key, cst.Name)
                and key.value == self.index
                and isinstance(node.value, cst.Subscript)
                and c.code(node.value.value) == self.frame
                and len(node.value.slice) == 1
                and is_constant(node.value.slice[0].slice.value)  # type: ignore[attr-defined]
            ):
                return c.code(node.value.slice[0].slice.value)  # type: ignore[attr-defined]
        if self.style in ("label", "index"):
            return self.labelled(node)
        return None

    def by_row(self, node: cst.CSTNode) -> bool:
        """``df.iloc[i]["a"]``: read from a copy of the row, which has the row's dtype."""
        inner = node.value if isinstance(node, cst.Subscript) else None
        return isinstance(inner, cst.Subscript) and isinstance(inner.value, cst.Attribute) \
            and inner.value.attr.value == "iloc"

    def labelled(self, node: cst.CSTNode) -> str | None:
        """``df.loc[i, "a"]`` / ``df.at[i, "a"]`` -> the column key, for this frame and index variable."""
        if not (
            isinstance(node, cst.Subscript)
            and isinstance(node.value, cst.Attribute)
            and node.value.attr.value in ("loc", "at")
            and self.cell.code(node.value.value) == self.frame
            and len(node.slice) == 2
        ):
            return None
        idx, key = (s.slice.value if isinstance(s.slice, cst.Index) else None for s in node.slice)
        if idx is None or key is None or not is_constant(key):
            return None
        if self.cell.code(idx) != (self.index or ""):
            return None
        return self.cell.code(key)

    def subst(self, node: cst.CSTNode) -> str | None:
        key = self.column(node)
        if key is None:
            return None
        self.read.add(key)
        return f"{self.frame}[{key}]"
