"""AIP201 python-loop-arithmetic: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, ParsedCell
from ...cell.tree import append_parts, call_name, expect, names_in
from ...fixes.edits import Edits
from ..elementwise import array_of, vectorise
from ..exprs import int_value, is_arithmetic, names_used
from ..facts import Facts, Loop
from ..registry import Hit, fixer_for, rule

SMALL_RANGE = 1000  # ``range(10)`` epochs or ``[1, 2, 3]``: too short for vectorising to matter


_WRAPPERS = ("builtins.enumerate", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm")


def _iter_parts(facts: Facts, it: cst.BaseExpression | None) -> list[cst.BaseExpression]:
    """What a loop really walks: ``enumerate(x)`` -> [x], ``zip(a, b)`` -> [a, b]."""
    if it is None:
        return []
    if isinstance(it, cst.Call) and it.args:
        qname = facts.names.qname(it.func)
        if qname in _WRAPPERS:
            return _iter_parts(facts, it.args[0].value)
        if qname == "builtins.zip":
            return [p for a in it.args for p in _iter_parts(facts, a.value)]
    return [it]


def _is_numeric(facts: Facts, node: cst.BaseExpression) -> bool:
    """A long sequence of numbers: ``range(n)``, a NumPy array, ``list(range(..))``, ``.tolist()``."""
    if isinstance(node, cst.Call):
        qname = facts.names.qname(node.func)
        if qname == "builtins.range":
            pos = [a for a in node.args if a.keyword is None]
            if len(pos) > 1 and int_value(pos[0].value) is None:
                return False  # ``range(lo, hi)``: walking index bounds, algorithm bookkeeping
            stop = pos[1] if len(pos) > 1 else (pos[0] if pos else None)
            bound = int_value(stop.value) if stop else None
            if bound is not None:
                return bound >= SMALL_RANGE
            if stop is not None and isinstance(stop.value, cst.Call) and stop.value.args:
                sized = (
                    facts.symbol(stop.value.args[0].value)
                    if facts.names.qname(stop.value.func) == "builtins.len"
                    else None
                )
                return sized is None or sized.numeric
            return True
    from ..symbols import infer_symbol

    sym = infer_symbol(node, facts)
    if sym is None or (sym.size is not None and sym.size < SMALL_RANGE):
        return False
    return sym.numeric or sym.kind in ("ndarray", "tensor")


def _uses(node: cst.CSTNode, names: frozenset[str]) -> bool:
    return bool(names_used(node) & names)


@rule(
    "AIP201",
    "python-loop-arithmetic",
    "Element-wise arithmetic in a Python loop over numbers: one vectorised NumPy expression does it",
)
def python_loop_arithmetic(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a `for` loop or comprehension over a long numeric sequence (`range(n)`, a NumPy array,
    `list(range(..))`, `.tolist()`) whose body computes one number per element and collects it
    (`out.append(x * 2)`, `[x ** 2 for x in xs]`, `total += x * w`, `c[i] = a[i] + b[i]`).

    ## Why is this bad?
    Each element costs a trip through the interpreter: a boxed number, a bytecode dispatch per
    operator, a list append. A NumPy expression runs the same loop in C over a packed buffer.
    Squaring a million numbers, the list comprehension took 53 ms and `np_array ** 2` 0.6 ms:
    88x (`benchmarks/traps/AIP201.py`).

    ## Example
    ```python
    xs = list(range(1_000_000))
    squares = [x ** 2 for x in xs]
    ```

    ## Use instead
    ```python
    xs = np.arange(1_000_000)
    squares = xs ** 2
    ```

    ## Fix safety
    Unsafe: NumPy integers overflow silently at 64 bits where Python integers grow, and the
    result is an array, not a list (`.tolist()` restores the type at some cost). Loops over
    strings, paths or short literals are not flagged.

    ## References
    - Seed article, chapter 2.2 ("replace native structures with NumPy arrays").
    """
    for loop in facts.loops:
        if loop.kind == "while" or not loop.targets:
            continue
        parts = _iter_parts(facts, loop.iter)
        if not parts or not all(_is_numeric(facts, p) for p in parts):
            continue
        if _collects_arithmetic(loop):
            yield loop.node


def _collects_arithmetic(loop: Loop) -> bool:
    node = loop.node
    if isinstance(node, cst.DictComp):
        return is_arithmetic(node.value) and _uses(node.value, loop.targets)
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return is_arithmetic(node.elt) and _uses(node.elt, loop.targets)
    for call in loop.calls:
        if call.loop is loop and call.method == "append" and len(call.node.args) == 1:
            value = call.node.args[0].value
            if is_arithmetic(value) and _uses(value, loop.targets):
                return True
    for assign in loop.assigns:
        if assign.loop is not loop or assign.value is None or not _uses(assign.value, loop.targets):
            continue
        if isinstance(assign.node, cst.AugAssign) and isinstance(assign.targets[0], cst.Name):
            return True
        if isinstance(assign.targets[0], cst.Subscript) and is_arithmetic(assign.value):
            return True
    return False


# -- AIP201 ---------------------------------------------------------------------------------------
@fixer_for("AIP201", "Compute with one NumPy expression")
def fix_elementwise(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    node = expect(node, (*COMPREHENSIONS, cst.For))
    if node is None:
        return "no loop or comprehension on the finding's line"
    edits = Edits("Compute with one NumPy expression (the result becomes a NumPy array)", safety="unsafe")

    def numpy() -> str:
        return edits.need(cell, "numpy")

    if isinstance(node, cst.For):
        return _for_loop(cell, node, edits, numpy)
    if not isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        return "set and dict comprehensions have no array equivalent"
    comp = node.for_in
    if comp.ifs or comp.inner_for_in or comp.asynchronous or not isinstance(comp.target, cst.Name):
        # [x for x in xs if x > 0] / nested fors / tuple targets: not one array expression
        return "the comprehension filters, nests or unpacks; only [f(x) for x in xs] is rewritten"
    vec = _vector(cell, node.elt, comp.target.value, comp.iter, numpy)
    if vec is None:
        return "the expression is not element-wise arithmetic on the loop variable"
    parent = cell.parent(node)
    if isinstance(node, cst.GeneratorExp) or isinstance(parent, cst.Arg):
        call = cell.parent(parent) if isinstance(parent, cst.Arg) else parent
        if isinstance(call, cst.Call) and call_name(call) == "sum" and len(call.args) == 1:
            edits.replace[call] = cst.parse_expression(f"({vec}).sum().item()")
            return edits
        if isinstance(node, cst.GeneratorExp):
            # a generator is consumed lazily by whatever receives it; an array is not a drop-in
            return "only a generator passed straight to sum(...) is rewritten"
    edits.replace[node] = cst.parse_expression(vec)
    return edits


def _vector(
    cell: ParsedCell, elt: cst.BaseExpression, var: str, iterable: cst.BaseExpression, numpy: object
) -> str | None:
    arr = array_of(iterable, cell.code, numpy)  # type: ignore[arg-type]
    if arr is None:
        return None
    return vectorise(elt, lambda n: arr if isinstance(n, cst.Name) and n.value == var else None, {var}, numpy)  # type: ignore[arg-type]


def _for_loop(cell: ParsedCell, loop: cst.For, edits: Edits, numpy: object) -> Edits | str:
    if loop.orelse or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop unpacks its items or has an else clause"
    body = loop.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        # several statements per element (prints, ifs, break/continue) are not one expression
        return "the loop body is more than one accumulating statement"
    small = body[0].body[0]
    var = loop.target.value
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        vec = _vector(cell, value, var, loop.iter, numpy)
        if vec is None or var in names_in(owner):
            return "the appended value is not element-wise arithmetic on the loop variable"
        target = cell.code(owner)
        # extend keeps ``target`` a list (whatever it already held) and the items plain Python numbers
        edits.replace[loop] = cst.parse_statement(f"{target}.extend(({vec}).tolist())\n")
        return edits
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        vec = _vector(cell, small.value, var, loop.iter, numpy)
        if vec is None or var in names_in(small.target):
            return "the accumulated value is not element-wise arithmetic on the loop variable"
        edits.replace[loop] = cst.parse_statement(f"{cell.code(small.target)} += ({vec}).sum().item()\n")
        return edits
    return "only out.append(f(x)) and total += f(x) loops are rewritten"
