"""AIP201 python-loop-arithmetic: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, ParsedCell
from ...cell.tree import append_parts, call_name, expect, names_in
from ...fixes.edits import Edits
from ..exprs import int_value, is_scalar_arithmetic, names_used, walk
from ..facts import Facts, Loop
from ..registry import Hit, fixer_for, rule
from ..result_types import NUMPY, attribute_of
from ..symbols import Symbol, infer_symbol
from .accumulations import running_sums
from .array_safety import array_refused, as_list, len_source, loop_scalars, total_of, vector
from .grid_stores import grid_store
from .matmul_loops import matmul_store
from .reductions import BUILTIN_REDUCERS, builtin_reductions, item_sum
from .scatter_stores import scatter_store
from .table_lookups import table_lookup
from .tensor_stores import made_tensor, tensor_store
from .window_stores import window_store

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


LARGE, UNSIZED = "large", "unsized"


def _numeric(facts: Facts, loop: Loop, node: cst.BaseExpression) -> str | None:
    """Whether a loop walks numbers: "large" (a range or array of at least 1,000 items, or an
    array made from data), "unsized" (``range(n)`` or ``range(len(x))`` with ``n`` unknown), or
    None (not numbers, or few of them)."""
    if isinstance(node, cst.Call) and facts.names.qname(node.func) == "builtins.range":
        pos = [a for a in node.args if a.keyword is None]
        if len(pos) > 1 and int_value(pos[0].value) is None:
            return None  # ``range(lo, hi)``: walking index bounds, algorithm bookkeeping
        stop = pos[1] if len(pos) > 1 else (pos[0] if pos else None)
        if stop is None:
            return None
        bound = _bound(facts, stop.value)
        if bound is not None:
            return LARGE if bound >= SMALL_RANGE else None
        inner = stop.value
        if isinstance(inner, cst.Call) and facts.names.qname(inner.func) == "builtins.len" and inner.args:
            sized = _symbol(facts, loop, inner.args[0].value)
            if sized is not None and sized.size is not None:
                return LARGE if sized.size >= SMALL_RANGE else None
            if sized is not None and _from_array(sized):
                return LARGE
            return UNSIZED if sized is None or sized.numeric else None
        return UNSIZED
    sym = _symbol(facts, loop, node) if isinstance(node, cst.Name) else infer_symbol(node, facts)
    if sym is None or (sym.size is not None and sym.size < SMALL_RANGE):
        return None
    if sym.kind == "range" and isinstance(sym.node, cst.Call):
        return _numeric(facts, loop, sym.node)
    if sym.numeric or sym.kind in ("ndarray", "tensor"):
        return LARGE if sym.size is not None or _from_array(sym) else UNSIZED
    return None


def _from_array(sym: Symbol) -> bool:
    """An array or tensor, or a list made from one (``arr.tolist()``): data, not bookkeeping."""
    if sym.kind in ("ndarray", "tensor"):
        return True
    node = sym.node
    return sym.kind == "list" and sym.numeric and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)


def _body_names(loop: Loop) -> set[str]:
    node = loop.node
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return names_used(node.elt)
    if isinstance(node, cst.DictComp):
        return names_used(node.value)
    return names_used(node.body) if isinstance(node, (cst.For, cst.While)) else set()


def _symbol(facts: Facts, loop: Loop, node: cst.BaseExpression) -> Symbol | None:
    """What a name held when the loop started (``xs = [f(x) for x in xs]`` rebinds it after)."""
    if isinstance(node, cst.Name) and loop.scope.binder(node.value) is not None:
        return None  # a parameter holds whatever the caller passes
    if isinstance(node, cst.Name) and node.value in loop.iter_symbols:
        return loop.iter_symbols[node.value]
    return facts.symbol(node) if isinstance(node, cst.Name) else None


def _bound(facts: Facts, node: cst.BaseExpression) -> int | None:
    """``1000`` or a name assigned a literal integer in the cell."""
    value = int_value(node)
    if value is not None or not isinstance(node, cst.Name):
        return value
    for assign in reversed(facts.assigns):
        if isinstance(assign.node, cst.Assign) and any(
            isinstance(t, cst.Name) and t.value == node.value for t in assign.targets
        ):
            return int_value(assign.value)
    return None


def _nested(facts: Facts, loop: Loop) -> bool:
    """The loop sits in (or is part of) another loop over numbers and its body reads both loops'
    variables: a grid walked element by element (``x[i][j]``, ``f(p, j)``)."""
    used = _body_names(loop)
    outer = loop.parent
    while outer is not None:
        if (
            outer.kind != "while"
            and used & outer.targets
            and any(_numeric(facts, outer, p) for p in _iter_parts(facts, outer.iter))
        ):
            return True
        outer = outer.parent
    node = loop.node
    return isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)) and (
        node.for_in.inner_for_in is not None
    )


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
    Flags a `for` loop or comprehension over a long numeric sequence (`range(n)` with `n` of at
    least 1,000, a NumPy array, `list(range(..))`, `.tolist()`; or a grid of index loops nested in
    each other) whose body computes one number per element and collects it (`out.append(x * 2)`,
    `[x ** 2 for x in xs]`, `total += x * w`, `c[i] = a[i] + b[i]`). Not flagged: joining or
    repeating lists and strings (`[bos] + tokens`, `" " + name`), bodies that call a model or any
    function working on whole arrays, recurrences (`x[i + 1] = x[i] - lr * g`: each step needs
    the previous one), and single loops of unknown length over an index (tiny data and
    iterative algorithms look the same there). Inside `%%aiperf` the run settles what reading
    cannot: a loop whose time was the interpreter's own work (or a NumPy call per element) on one
    item of an array, a tensor or a list of numbers at a time, or on the numbers a range hands
    it, is reported with its measured iterations, whatever bounds it has (a function's
    parameter: `range(len(values))`), wherever it is (a function of an earlier cell, a
    comprehension inside one); so are `sum`/`min`/`max` walking a large array. A loop run once
    over fewer than 1,000 items, or one that carries a value from one step to the next, is not.

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
    Unsafe: NumPy integers overflow silently at 64 bits where Python integers grow (the fix
    declines where the values can be bounded and do not fit). The result keeps its type: a list
    stays a list and a sum the scalar the loop made, NumPy scalars where the loop read an array
    (`list(arr ** 2)`, `out.extend(arr * 2)`, `(arr * b).sum()`) and Python ones where it read a
    list of Python numbers or a `range` (`.tolist()`, `.sum().item()`); only a list handed
    straight to a NumPy function becomes the array. Inside `%%aiperf` the live data says which;
    without a run, data nothing in the cell describes is taken to be an array, and Try says when
    it is not. Loops over strings, paths or short literals are not flagged.

    ## References
    - Seed article, chapter 2.2 ("replace native structures with NumPy arrays").
    """
    for loop in facts.loops:
        if loop.kind == "while" or not loop.targets:
            continue
        parts = _iter_parts(facts, loop.iter)
        kinds = [_numeric(facts, loop, p) for p in parts]
        if not parts or None in kinds:
            continue
        if LARGE not in kinds and not _nested(facts, loop):
            continue  # one loop of unknown length: tiny data and iterative algorithms look the same
        if _collects_arithmetic(facts, loop):
            yield loop.node


def _element(value: cst.BaseExpression, targets: frozenset[str]) -> bool:
    """``total += x`` / ``total += xs[i]``: the element itself."""
    if isinstance(value, cst.Name):
        return value.value in targets
    return isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and bool(names_used(value) & targets)


def _textual(facts: Facts, node: cst.BaseExpression) -> bool:
    """An operand that holds text: a string name (``start = " "``), an item of a list of strings."""
    for sub in walk(node):
        if isinstance(sub, cst.Subscript):
            sub = sub.value
        if isinstance(sub, cst.Name):
            sym = facts.symbols.get(sub.value)
            held = sym.node if sym is not None else None
            if isinstance(held, (cst.SimpleString, cst.FormattedString)):
                return True
            if isinstance(held, (cst.List, cst.Tuple)) and held.elements and all(
                isinstance(e.value, (cst.SimpleString, cst.FormattedString)) for e in held.elements
            ):
                return True
    return False


def _sliced(target: cst.Subscript) -> bool:
    """``out[:, t:t + 1] = ...``: a whole column per iteration, already array work."""
    return any(isinstance(el.slice, cst.Slice) for el in target.slice)


def _recurrence(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """``x[i + 1] = x[i] - lr * g``: each element depends on the previous one (an iterative
    algorithm), which no single array expression computes."""
    root = target
    while isinstance(root, (cst.Subscript, cst.Attribute)):
        root = root.value
    return isinstance(root, cst.Name) and root.value in names_used(value)


def _collects_arithmetic(facts: Facts, loop: Loop) -> bool:
    node = loop.node
    def numbers(value: cst.BaseExpression) -> bool:
        return is_scalar_arithmetic(value) and _uses(value, loop.targets) and not _textual(facts, value)

    if isinstance(node, cst.DictComp):
        return numbers(node.value)
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return numbers(node.elt)
    own = [c for c in loop.calls if c.loop is loop and c.method == "append" and len(c.node.args) == 1]
    appended = [c.node.args[0].value for c in own]
    if any(numbers(value) for value in appended):
        return True
    for assign in loop.assigns:
        if assign.loop is not loop or assign.value is None or not _uses(assign.value, loop.targets):
            continue
        if (
            isinstance(assign.node, cst.AugAssign)
            and isinstance(assign.targets[0], cst.Name)
            and (is_scalar_arithmetic(assign.value) or _element(assign.value, loop.targets))
        ):
            return True
        target = assign.targets[0]
        if (
            isinstance(target, cst.Subscript)
            and not _sliced(target)
            and numbers(assign.value)
            and not _recurrence(target, assign.value)
        ):
            return True
    return False


# -- AIP201 ---------------------------------------------------------------------------------------
@fixer_for("AIP201", "Compute with one NumPy expression")
def fix_elementwise(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    if isinstance(node, cst.Call) and facts.names.qname(node.func) in BUILTIN_REDUCERS:
        return builtin_reductions(cell, node, facts)  # sum(big_array), found by the run
    node = expect(node, (*COMPREHENSIONS, cst.For))
    if node is None:
        return "no loop or comprehension on the finding's line"
    edits = Edits("Compute with one NumPy expression", safety="unsafe")
    # converting to an array and back costs more than a short loop: the gain depends on the size
    edits.measure_first = "a NumPy expression pays from about a thousand items; below that the loop is as fast"

    def numpy() -> str:
        return edits.need(cell, "numpy")

    if isinstance(node, cst.For):
        return _for_loop(cell, node, edits, numpy, facts)
    if not isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        return "set and dict comprehensions have no array equivalent"
    comp = node.for_in
    if comp.ifs or comp.inner_for_in or comp.asynchronous or not isinstance(comp.target, cst.Name):
        # [x for x in xs if x > 0] / nested fors / tuple targets: not one array expression
        return "the comprehension filters, nests or unpacks; only [f(x) for x in xs] is rewritten"
    vec = vector(cell, node.elt, comp.target.value, comp.iter, numpy)
    parent = cell.parent(node)
    call = cell.parent(parent) if isinstance(parent, cst.Arg) else parent
    looked_up = table_lookup(cell, node, facts) if isinstance(node, cst.ListComp) else None
    if vec is None and looked_up is not None and isinstance(call, cst.Call) and call.args and call.args[0] is parent \
            and parent.keyword is None and (facts.names.qname(call.func) or "") in ("numpy.array", "numpy.asarray"):
        # np.array([lut[p] for p in img]) -> np.array(lut[img]): one indexing pays at any size
        edits.title, edits.measure_first = "Index the table with the whole array", None
        edits.replace[node] = cst.parse_expression(looked_up)
        return edits
    if vec is None:
        return "the expression is not element-wise arithmetic on the loop variable"
    parent = cell.parent(node)
    call = cell.parent(parent) if isinstance(parent, cst.Arg) else parent
    summed = isinstance(call, cst.Call) and call_name(call) == "sum" and len(call.args) == 1
    why = array_refused(cell, node, node.elt, comp.target.value, comp.iter, facts, summed=summed)
    if why is not None:
        return why
    numbers = loop_scalars(facts, node.elt, comp.target.value, comp.iter)
    if summed and call is not None:
        edits.replace[call] = cst.parse_expression(total_of(vec, numbers))
        return edits
    if isinstance(node, cst.GeneratorExp):
        # a generator is consumed lazily by whatever receives it; an array is not a drop-in
        return "only a generator passed straight to sum(...) is rewritten"
    numpy_call = isinstance(call, cst.Call) and (facts.names.qname(call.func) or "").startswith("numpy.")
    # a NumPy function takes the array as it took the list; anywhere else the list stays a list
    edits.replace[node] = cst.parse_expression(vec if numpy_call else as_list(vec, numbers))
    return edits


def _for_loop(cell: ParsedCell, loop: cst.For, edits: Edits, numpy: object, facts: Facts) -> Edits | str:
    scattered = scatter_store(cell, loop, edits, facts)  # for i, x in enumerate(xs): t[i, f(x)] = 1
    if scattered is not None:
        return scattered
    gridded = grid_store(cell, loop, edits, facts)  # for i ...: for j ...: if j > i: t[i, j] = c
    if gridded is not None:
        return gridded
    multiplied = matmul_store(cell, loop, edits, facts)  # for i: for j: for k: c[i, j] += a[i, k] * b[k, j]
    if multiplied is not None:
        return multiplied
    if loop.orelse or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop unpacks its items or has an else clause"
    body = loop.body.body
    summed = running_sums(cell, loop, edits, numpy, facts)  # temporaries feeding running sums
    if summed is not None:
        return summed
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        # several statements per element (prints, ifs, break/continue) are not one expression
        return "the loop body is more than one accumulating statement"
    small = body[0].body[0]
    var = loop.target.value
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        vec = vector(cell, value, var, loop.iter, numpy)
        if vec is None or var in names_in(owner):
            return "the appended value is not element-wise arithmetic on the loop variable"
        why = array_refused(cell, small, value, var, loop.iter, facts)
        if why is not None:
            return why
        # extend keeps the target a list (whatever it already held), its items the loop's scalars
        items = vec if loop_scalars(facts, value, var, loop.iter) == NUMPY else attribute_of(vec, "tolist()")
        edits.replace[loop] = cst.parse_statement(f"{cell.code(owner)}.extend({items})\n")
        return edits
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        items = item_sum(cell, loop, small, var, facts)  # total += losses[i].item(), over a tensor
        if items is not None:
            edits.replace[loop] = cst.parse_statement(items)
            edits.title, edits.measure_first = "Sum the tensor in one call", None
            return edits
        vec = vector(cell, small.value, var, loop.iter, numpy)
        if vec is None or var in names_in(small.target):
            return "the accumulated value is not element-wise arithmetic on the loop variable"
        why = array_refused(cell, small, small.value, var, loop.iter, facts, summed=True)
        if why is not None:
            return why
        total = total_of(vec, loop_scalars(facts, small.value, var, loop.iter))
        edits.replace[loop] = cst.parse_statement(f"{cell.code(small.target)} += {total}\n")
        return edits
    if isinstance(small, cst.Assign):
        return _index_store(cell, loop, small, var, edits, numpy, facts)
    return "only out.append(f(x)), out[i] = f(x) and total += f(x) loops are rewritten"


_ARRAY_MAKERS = frozenset({"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like"})


def _index_store(
    cell: ParsedCell, loop: cst.For, small: cst.Assign, var: str, edits: Edits, numpy: object, facts: Facts
) -> Edits | str:
    """``for i in range(len(a)): out[i] = f(a[i])`` -> ``out[:len(a)] = f(np.asarray(a))`` where ``out``
    is a NumPy array the cell made (``np.empty``/``zeros``/...) before the loop: storing the
    whole slice casts to ``out``'s dtype as each store did."""
    target = small.targets[0].target if len(small.targets) == 1 else None
    if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and len(target.slice) == 1
            and isinstance(target.slice[0].slice, cst.Index) and cell.code(target.slice[0].slice.value) == var):
        return "the loop stores somewhere other than out[i] for its own index"
    owner = target.value.value
    if owner in names_in(small.value):
        return f"{owner}[i] reads {owner} itself: each element may depend on the one before"
    if made_tensor(cell, loop, owner, facts):
        return tensor_store(cell, loop, owner, small.value, var, edits, facts)
    if _made_array(cell, loop, owner, facts):  # out[i] = a[i - w:i].mean(): every window at once
        ns = facts.names.namespace
        windowed = window_store(cell, loop, owner, small.value, var, edits, facts,
                                lambda name: ns.get(name) if ns is not None else None)
        if windowed is not None:
            return windowed
    length = len_source(loop.iter)
    if length is None:
        return "the loop is not over range(len(a))"
    if not _made_array(cell, loop, owner, facts):
        return f"{owner} is not a NumPy array made before the loop (np.empty, np.zeros, ...)"
    vec = vector(cell, small.value, var, loop.iter, numpy)
    if vec is None:
        return "the stored value is not element-wise arithmetic on the loop's index"
    why = array_refused(cell, small, small.value, var, loop.iter, facts)
    if why is not None:
        return why
    edits.replace[loop] = cst.parse_statement(f"{owner}[:len({length})] = {vec}\n")
    return edits


def _made_array(cell: ParsedCell, loop: cst.For, owner: str, facts: Facts) -> bool:
    for statement in reversed(cell.preceding(loop)):
        if owner not in names_in(statement):
            continue
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == owner):
            return False
        value = small.value
        qname = facts.names.qname(value.func) if isinstance(value, cst.Call) else None
        return bool(qname) and qname.startswith("numpy.") and qname.rsplit(".", 1)[1] in _ARRAY_MAKERS
    return False
