"""AIP201 for a loop body of several statements: per-element temporaries feeding running sums.

    for i in range(m):                    f_wb = w * np.asarray(x)[:m] + b
        f_wb = w * x[i] + b               err = f_wb - np.asarray(y)[:m]
        err = f_wb - y[i]          ->     dj_db += err.sum()
        dj_db += err                      dj_dw += (err * np.asarray(x)[:m]).sum()
        dj_dw += err * x[i]

The analysis, statement by statement, in order: a *temporary* is a plain name assigned once,
from element-wise arithmetic (:func:`..elementwise.vectorise`) of the element, outer scalars and
the temporaries before it; it becomes the array of its values. A *running sum* is
``acc += expr`` or ``acc = acc + expr`` with ``acc`` a plain name read nowhere else in the body
(no step sees another's total) and ``expr`` element-wise; it becomes ``acc += total``, the sum as
the loop's scalars made it (:func:`.array_safety.total_of`; floats are added pairwise, within
Try's float64 tolerance). Anything else in the body (a call, an ``if``, a store into a container,
a name assigned twice, or read before this pass assigns it: the previous element's value) leaves
the loop to the other rewrites.

Preconditions, each with the reason given when it fails: the loop variable and the temporaries are
not read after the loop in the same block (they would hold arrays, not the last element's values);
every running sum's expression, with its temporaries written out, passes the array-safety checks
of the single-statement rewrite (numbers proven, int64 not overflowing). An index loop may walk
``range(len(a))`` or ``range(m)`` where ``m`` was last set to ``len(a)`` or ``a.shape[0]`` before it in
the same block, so that ``a[i]`` is ``np.asarray(a)[:m]``.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import names_in
from ...fixes.edits import Edits
from ..elementwise import array_of, vectorise
from ..facts import Facts
from .array_safety import array_refused, indexed_by, len_source, loop_scalars, total_of


def running_sums(cell: ParsedCell, loop: cst.For, edits: Edits, numpy: Callable[[], str],
                 facts: Facts) -> Edits | str | None:
    """The rewrite of ``loop`` when its body is temporaries and running sums; a reason when it is that
    shape but would not be equal; None when it is not that shape."""
    if not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock) or loop.orelse:
        return None
    smalls = _simple_statements(loop.body.body)
    if smalls is None or len(smalls) < 2:
        return None
    var = loop.target.value
    temps: dict[str, cst.BaseExpression] = {}  # name -> its value with earlier temporaries written out
    # (is a running sum, name, value as written, value with its temporaries written out)
    steps: list[tuple[bool, str, cst.BaseExpression, cst.BaseExpression]] = []
    for small in smalls:
        parts = _sum_parts(small)
        is_sum = parts is not None
        if parts is None:
            target, value = _plain_target(small), getattr(small, "value", None)
            if target is None or target == var or target in temps or target in names_in(value):
                return None
            parts = target, value
        name, value = parts
        written = _written_out(value, temps)
        steps.append((is_sum, name, value, written))
        if not is_sum:
            temps[name] = written
    accs = [name for is_sum, name, _, _ in steps if is_sum]
    if not accs or len(set(accs)) < len(accs):
        return None  # no running sum, or one total added to twice
    if any(names_in(value) & set(accs) for _, _, value, _ in steps):
        return None  # a step reads a running total: each step depends on the one before
    if any(names_in(value) & {name for is_sum, name, _, _ in steps[k:] if not is_sum}
           for k, (_, _, value, _) in enumerate(steps)):
        return None  # a step reads a temporary before this pass sets it: the previous element's value
    kept = sorted((set(temps) | {var}) & _read_after(cell, loop))
    if kept:
        return f"{', '.join(kept)} is read after the loop, where it holds the last element's value"
    walked = _walked(cell, loop)
    arr = array_of(loop.iter, cell.code, numpy)
    if arr is None:
        return None

    def subst(node: cst.CSTNode) -> str | None:
        if isinstance(node, cst.Name) and node.value == var:
            return arr
        if isinstance(node, cst.Name) and node.value in temps:
            return node.value
        base = indexed_by(node, var)
        if base is None or walked is None:
            return None
        whole = f"{numpy()}.asarray({base})"
        sequence, bound = walked
        return whole if base == sequence else f"{whole}[:{bound}]"

    lines: list[str] = []
    for is_sum, name, value, written in steps:
        vec = vectorise(value, subst, {var, *temps}, numpy)
        if vec is None:
            return "a statement of the loop is not element-wise arithmetic on the loop variable"
        if not is_sum:
            lines.append(f"{name} = {vec}")
            continue
        why = array_refused(cell, loop, written, var, loop.iter, facts, summed=True)
        if why is not None:
            return why
        lines.append(f"{name} += {total_of(vec, loop_scalars(facts, written, var, loop.iter))}")
    edits.before[loop] = [f"{line}\n" for line in lines[:-1]]
    edits.replace[loop] = cst.parse_statement(f"{lines[-1]}\n")
    edits.title = "Compute the loop's sums with NumPy"
    return edits


def _read_after(cell: ParsedCell, loop: cst.For) -> set[str]:
    """Names the code may read after the loop, in its function (or the cell): the statements after it
    in its block and in every enclosing block, and, inside an enclosing loop, those before it too
    (the next pass runs them)."""
    chain: list[cst.CSTNode] = []  # the loop and its ancestors up to its function (or the cell)
    node: cst.CSTNode | None = loop
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Module)):
        chain.append(node)
        node = cell.parent(node)
    in_loop = any(isinstance(n, (cst.For, cst.While)) for n in chain[1:])
    out: set[str] = set()
    for node in chain:
        for statement in cell.following(node) + (cell.preceding(node) if in_loop else []):
            out |= names_in(statement)
    return out


def _simple_statements(body: object) -> list[cst.BaseSmallStatement] | None:
    out: list[cst.BaseSmallStatement] = []
    for line in body:  # type: ignore[attr-defined]
        if not isinstance(line, cst.SimpleStatementLine):
            return None
        out.extend(line.body)
    return out


def _plain_target(small: cst.BaseSmallStatement) -> str | None:
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value
    return None


def _sum_parts(small: cst.BaseSmallStatement) -> tuple[str, cst.BaseExpression] | None:
    """``acc += v`` or ``acc = acc + v`` (or ``v + acc``): (acc, v)."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
            and isinstance(small.target, cst.Name):
        return small.target.value, small.value
    acc = _plain_target(small)
    value = small.value if acc is not None else None  # type: ignore[attr-defined]
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        for own, other in ((value.left, value.right), (value.right, value.left)):
            if isinstance(own, cst.Name) and own.value == acc and acc not in names_in(other):
                return acc, other
    return None


class _WriteOut(cst.CSTTransformer):
    def __init__(self, temps: dict[str, cst.BaseExpression]) -> None:
        self.temps = temps

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        held = self.temps.get(original.value)
        return held.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if held is not None else updated


def _written_out(value: cst.BaseExpression, temps: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    if not temps:
        return value
    out = value.visit(_WriteOut(temps))
    assert isinstance(out, cst.BaseExpression)
    return out


def _walked(cell: ParsedCell, loop: cst.For) -> tuple[str, str] | None:
    """The sequence an index loop's range covers and how its length is written: ``("a", "len(a)")``
    for ``range(len(a))``; ``("a", "m")`` for ``range(m)`` where the statement that last set ``m`` in
    the same block, before the loop, is ``m = len(a)`` or ``m = a.shape[0]``."""
    direct = len_source(loop.iter)
    if direct is not None:
        return direct, f"len({direct})"
    it = loop.iter
    if not (isinstance(it, cst.Call) and len(it.args) == 1 and isinstance(it.args[0].value, cst.Name)
            and isinstance(it.func, cst.Name) and it.func.value == "range"):
        return None
    bound = it.args[0].value.value
    for statement in reversed(cell.preceding(loop)):
        if bound not in names_in(statement):
            continue
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if small is None or _plain_target(small) != bound:
            return None
        sized = _sized(small.value)  # type: ignore[attr-defined]
        return (sized, bound) if sized is not None else None
    return None


def _sized(value: cst.BaseExpression) -> str | None:
    """``a`` for ``len(a)`` or ``a.shape[0]``."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "len" \
            and len(value.args) == 1 and isinstance(value.args[0].value, cst.Name):
        return value.args[0].value.value
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) \
            and value.value.attr.value == "shape" and isinstance(value.value.value, cst.Name) \
            and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Integer) and value.slice[0].slice.value.value == "0":
        return value.value.value.value
    return None
