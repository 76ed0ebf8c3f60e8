"""AIP2xx: Python data structures used where arrays, sets or a single join belong."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ..exprs import int_value, is_arithmetic, names_used, same_ref
from ..facts import Facts, Loop
from ..registry import Hit, rule

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
    fixable=True,
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


def _is_list(facts: Facts, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.ListComp):
        return True
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "tolist":
            return True
        return facts.names.qname(node.func) == "builtins.list"
    sym = facts.symbol(node) if isinstance(node, cst.Name) else None
    return sym is not None and sym.kind == "list" and (sym.size is None or sym.size > 8)


@rule(
    "AIP202",
    "list-membership-in-loop",
    "Membership test against a list inside a loop: each test scans the whole list",
    fixable=True,
)
def list_membership_in_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `x in some_list`, `x not in some_list` and `some_list.index(x)` inside a loop or
    comprehension, when `some_list` is a list built in the code (not a short literal).

    ## Why is this bad?
    A list lookup compares `x` with every element until it finds it: n lookups into n elements
    is n² work. A set or dict hashes `x` once. For 10,000 lookups into 10,000 items, the list
    took 464 ms and the set 0.6 ms: 760x (`benchmarks/traps/AIP202.py`).

    ## Example
    ```python
    vocab = [w for w in counts if counts[w] > 5]
    ids = [vocab.index(w) for w in tokens if w in vocab]
    ```

    ## Use instead
    ```python
    index = {w: i for i, w in enumerate(vocab)}  # built once
    ids = [index[w] for w in tokens if w in index]
    ```

    ## Fix safety
    Safe when the list is not changed inside the loop and its items are hashable; `.index()`
    becomes a dict of first positions, which keeps the same answer for duplicates.

    ## References
    - Seed article, chapter 2.1 ("dictionaries give O(1) lookups for label encoding").
    """
    for loop in facts.loops:
        if _over_short_literal(facts, loop):
            continue  # ``for flag in ("-a", "-b"):``: a couple of lookups, whatever the list
        for member in loop.memberships:
            if member.loop is loop and _is_list(facts, member.container):
                yield member.node
        for call in loop.calls:
            if (
                call.loop is loop
                and call.method == "index"
                and len(call.node.args) == 1
                and call.receiver is not None
                and _is_list(facts, call.receiver)
            ):
                yield call.node


def _over_short_literal(facts: Facts, loop: Loop) -> bool:
    it = loop.iter
    if isinstance(it, (cst.Tuple, cst.List, cst.Set)):
        return len(it.elements) <= 8
    if isinstance(it, cst.Call) and facts.names.qname(it.func) == "builtins.range" and len(it.args) == 1:
        bound = int_value(it.args[0].value)
        return bound is not None and bound <= 8
    return False


GROWERS = frozenset(
    [
        f"numpy.{n}"
        for n in ["append", "concatenate", "vstack", "hstack", "stack", "row_stack", "column_stack", "dstack"]
    ]
    + [f"torch.{n}" for n in ["cat", "concat", "concatenate", "stack", "vstack", "hstack"]]
    + ["pandas.concat"]
)


def _grows_itself(target: cst.BaseExpression, call: cst.Call) -> bool:
    """``a = np.append(a, x)`` / ``t = torch.cat([t, x])``: the result is fed back next time."""
    if not call.args:
        return False
    first = call.args[0].value
    if same_ref(first, target):
        return True
    if isinstance(first, (cst.List, cst.Tuple)):
        return any(same_ref(e.value, target) for e in first.elements)
    return False


@rule(
    "AIP203",
    "growing-array-in-loop",
    "Array/tensor/frame grown inside a loop: every step copies everything so far",
    fixable=True,
)
def growing_array_in_loop(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags `a = np.append(a, x)`, `np.concatenate`/`np.vstack`, `t = torch.cat([t, x])`,
    `torch.stack`, `df = pd.concat([df, row])` and `df.loc[len(df)] = row` inside a loop.

    ## Why is this bad?
    Arrays, tensors and frames are fixed-size blocks: "appending" allocates a new block and
    copies every element so far, so n appends copy n²/2 elements. Collecting the pieces in a
    list and joining once copies each element once. Building a 2,000-row frame with
    `pd.concat` per row took 337 ms; collecting the rows and building the frame once took
    1.1 ms: 316x (`benchmarks/traps/AIP203.py`).

    ## Example
    ```python
    df = pd.DataFrame()
    for path in paths:
        df = pd.concat([df, pd.read_csv(path)])
    ```

    ## Use instead
    ```python
    df = pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)
    ```

    ## Fix safety
    Safe when nothing in the loop reads the partial result; unsafe otherwise (the fix would
    change what the loop sees). `ignore_index` may differ: review the index of the result.

    ## References
    - Seed article, chapter 2.3 ("preallocation instead of repeated allocation") and chapter 1
      (frequent `torch.cat` operations).
    """
    for assign in facts.assigns:
        if assign.loop is None or not isinstance(assign.node, cst.Assign):
            continue
        value = assign.value
        for target in assign.targets:
            if (
                isinstance(value, cst.Call)
                and facts.names.qname(value.func) in GROWERS
                and _grows_itself(target, value)
            ):
                yield value
            elif isinstance(target, cst.Subscript) and _is_loc_len(target):
                yield assign.node


def _is_loc_len(target: cst.Subscript) -> bool:
    """``df.loc[len(df)]``: appending one row by label."""
    loc = target.value
    if not (isinstance(loc, cst.Attribute) and loc.attr.value in ("loc", "at")) or not target.slice:
        return False
    index = target.slice[0].slice
    value = index.value if isinstance(index, cst.Index) else None
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "len"
        and len(value.args) == 1
        and same_ref(value.args[0].value, loc.value)
    )
