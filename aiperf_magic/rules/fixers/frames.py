"""Fixes for pandas: row loops (AIP301) and row-wise ``apply`` (AIP302) become column expressions."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ...fixes.base import Cell, append_parts, assigned_names, call_name, kwarg, names_in
from ...fixes.edits import Edits
from ...fixes.registry import fixer
from ...report import Finding
from .vectorize import vectorise


def _const(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.SimpleString, cst.Integer))


class _RowAccess:
    """Maps one row's cell accesses (``row["a"]``, ``row.a``, ``df.loc[i, "a"]``) to whole columns."""

    def __init__(self, cell: Cell, frame: str, style: str, row: str | None, index: str | None) -> None:
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
                and _const(key)
            ):
                return c.code(key)
            # df["a"][i]
            if (
                self.style == "label"
                and isinstance(key, cst.Name)
                and key.value == self.index
                and isinstance(node.value, cst.Subscript)
                and c.code(node.value.value) == self.frame
                and len(node.value.slice) == 1
                and _const(node.value.slice[0].slice.value)  # type: ignore[attr-defined]
            ):
                return c.code(node.value.slice[0].slice.value)  # type: ignore[attr-defined]
        if self.style == "label":
            return self.labelled(node)
        return None

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
        if idx is None or key is None or not _const(key):
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


@fixer("AIP301", "Replace the row loop with column expressions")
def fix_row_loop(cell: Cell, finding: Finding) -> Edits | str:
    loop = cell.at_line(finding.line, cst.For, finding.col)
    if not isinstance(loop, cst.For):
        return "no for statement on the finding's line"
    access = _row_access(cell, loop)
    if isinstance(access, str):
        return access
    if loop.orelse or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop has an else clause"
    per_row = {n for n in (access.row, access.index) if n} | (assigned_names(loop.body) - {access.frame})
    lines: list[str] = []
    written: set[str] = set()
    safe = access.style == "tuple"
    for statement in loop.body.body:
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            # if/for/try inside the loop, or break/continue: rows are not independent any more
            return "the loop body has control flow; only column assignments, appends and sums are rewritten"
        small = statement.body[0]
        line, kind = _statement(cell, access, small, per_row)
        if line is None:
            return kind
        if kind == "column":
            written.add(line.split("] = ", 1)[0].split("[", 1)[1])
        safe = safe and kind == "append"
        lines.append(line)
    if access.style != "label" and written & access.read:
        # the row is a copy taken before the loop writes: reading a written column sees old values
        return "the loop reads a column it also writes; the row copy would see the old values"
    safety = "safe" if safe else "unsafe"
    edits = Edits("Replace the row loop with column expressions", safety=safety)
    edits.replace[loop] = cst.FlattenSentinel([cst.parse_statement(x + "\n") for x in lines])  # type: ignore[assignment]
    return edits


def _row_access(cell: Cell, loop: cst.For) -> _RowAccess | str:
    it, target = loop.iter, loop.target
    name = call_name(it)
    if (
        isinstance(it, cst.Call)
        and isinstance(it.func, cst.Attribute)
        and it.func.attr.value in ("iterrows", "itertuples")
    ):
        frame = it.func.value
        if not isinstance(frame, (cst.Name, cst.Attribute)):
            # df[df.x > 0].iterrows(): the subset would be recomputed for every column expression
            return "the loop walks a computed frame; assign it to a name first"
        if it.func.attr.value == "iterrows":
            if not (
                isinstance(target, cst.Tuple)
                and len(target.elements) == 2
                and all(isinstance(e.value, cst.Name) for e in target.elements)
            ):
                return "iterrows() target is not (index, row)"
            idx, row = (e.value.value for e in target.elements)  # type: ignore[attr-defined]
            return _RowAccess(cell, cell.code(frame), "row", row, idx)
        if any(a.keyword is None or (a.keyword.value == "name" and cell.code(a.value) == "None") for a in it.args):
            return "itertuples(name=None) yields plain tuples read by position"
        if not isinstance(target, cst.Name):
            return "itertuples() target is unpacked"
        return _RowAccess(cell, cell.code(frame), "tuple", target.value, None)
    if (
        name == "range"
        and isinstance(it, cst.Call)
        and len(it.args) == 1
        and call_name(it.args[0].value) == "len"
        and isinstance(target, cst.Name)
    ):
        frame = it.args[0].value.args[0].value  # type: ignore[attr-defined]
        if isinstance(frame, (cst.Name, cst.Attribute)):
            return _RowAccess(cell, cell.code(frame), "label", None, target.value)
    return "the loop is not over iterrows(), itertuples() or range(len(df))"


def _statement(
    cell: Cell, access: _RowAccess, small: cst.BaseSmallStatement, per_row: set[str]
) -> tuple[str | None, str]:
    """The column-wise line for one statement of the loop body, and its kind (or None and why)."""
    numpy_needed: list[str] = []

    def numpy() -> str:
        numpy_needed.append("numpy")
        return "np"

    def vec(node: cst.BaseExpression) -> str | None:
        out = vectorise(node, access.subst, per_row, numpy)
        return None if numpy_needed else out  # math.* functions are left to a later version

    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        key = _written_column(cell, access, target)
        if key is None:
            return None, "the loop assigns something other than the current row's cell of the frame"
        v = vec(small.value)
        if v is None:
            return None, "the assigned value is not arithmetic on the row's columns"
        return f"{access.frame}[{key}] = {v}", "column"
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        if names_in(owner) & {access.row, access.index, access.frame}:
            return None, "the list appended to depends on the row"
        v = vec(value)
        if v is None:
            return None, "the appended value is not arithmetic on the row's columns"
        return f"{cell.code(owner)}.extend(({v}).tolist())", "append"
    if (
        isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and isinstance(small.target, cst.Name)
    ):
        v = vec(small.value)
        if v is None:
            return None, "the accumulated value is not arithmetic on the row's columns"
        return f"{small.target.value} += ({v}).sum()", "sum"
    return None, "the loop body does more than assign columns, append to a list or add to a total"


def _written_column(cell: Cell, access: _RowAccess, target: cst.CSTNode) -> str | None:
    if not (
        isinstance(target, cst.Subscript)
        and isinstance(target.value, cst.Attribute)
        and target.value.attr.value in ("loc", "at")
        and cell.code(target.value.value) == access.frame
        and len(target.slice) == 2
    ):
        return None
    idx, key = (s.slice.value if isinstance(s.slice, cst.Index) else None for s in target.slice)
    if idx is None or key is None or not _const(key):
        return None
    label = {"row": access.index, "label": access.index, "tuple": f"{access.row}.Index"}[access.style]
    return cell.code(key) if cell.code(idx) == label else None


@fixer("AIP302", "Replace apply with a column expression")
def fix_apply(cell: Cell, finding: Finding) -> Edits | str:
    call = cell.at_line(
        finding.line,
        cst.Call,
        finding.col,
        where=lambda n: isinstance(n.func, cst.Attribute) and n.func.attr.value == "apply",
    )
    if not isinstance(call, cst.Call):
        return "no .apply(...) call on the finding's line"
    owner = call.func.value  # type: ignore[attr-defined]
    if not call.args or not isinstance(call.args[0].value, cst.Lambda):
        # apply(func): the function's body is not in view, so nothing proves it is element-wise
        return "apply is given a named function; only a lambda's body can be rewritten"
    lam = call.args[0].value
    params = lam.params.params
    if len(params) != 1 or lam.params.star_arg is not cst.MaybeSentinel.DEFAULT or lam.params.kwonly_params:
        return "the lambda does not take exactly one argument"
    p = params[0].name.value
    axis = kwarg(call, "axis")
    others = [a for a in call.args[1:] if a is not axis]
    if others:
        return "apply has extra arguments (args=, raw=, result_type=...)"
    if not isinstance(owner, (cst.Name, cst.Attribute, cst.Subscript)):
        return "apply is called on a computed value; assign it to a name first"
    frame = cell.code(owner)
    if axis is not None:
        if cell.code(axis.value) not in ("1", "'columns'", '"columns"'):
            return "apply runs over columns (axis=0), not rows"
        subst: Callable[[cst.CSTNode], str | None] = _RowAccess(cell, frame, "row", p, None).subst
    elif isinstance(owner, cst.Subscript) or (
        isinstance(owner, cst.Attribute) and not isinstance(cell.parent(call), cst.Call)
    ):

        def subst(n: cst.CSTNode) -> str | None:  # type: ignore[misc]
            return frame if isinstance(n, cst.Name) and n.value == p else None
    else:
        # frame.apply(f) without axis calls f per column, and a plain name could be either kind
        return "cannot tell whether apply runs per element or per column here; pass axis=1 for rows"
    used: list[str] = []
    out = vectorise(lam.body, subst, {p}, lambda: used.append("np") or "np")  # type: ignore[func-returns-value]
    if out is None or used:
        return "the lambda's body is not arithmetic on its argument"
    edits = Edits("Replace apply with a column expression", safety="unsafe")
    parent = cell.parent(call)
    code = out if isinstance(parent, (cst.Assign, cst.Arg)) else f"({out})"
    edits.replace[call] = cst.parse_expression(code)
    return edits
