"""AIP201 for a matrix product written as three nested index loops that add into a tensor or an
array made just before them:

```python
c = torch.zeros(ar, bc)
for i in range(ar):
    for j in range(bc):
        for k in range(ac):
            c[i, j] += a[i, k] * b[k, j]
# becomes
c = torch.zeros(ar, bc)
for k in range(ac):
    c += a[:, k:k + 1] * b[k:k + 1]
```

Step ``k`` adds the outer product of column ``k`` of ``a`` and row ``k`` of ``b``: element ``[i, j]``
gets ``a[i, k] * b[k, j]``, rounded as the scalar product was, added to what it held, so every
element receives the same additions in the same order and ends bit for bit where the loops left it.
``a @ b`` would be faster still, but it adds in another order: float32 results then differ in their
last digits (2e-6 relative over 784 terms), which Try reports as a difference; the rewrite keeps
the loops' arithmetic, and runs ``ar * bc`` times fewer Python steps. A slice is written only where
the loops walked part of a dimension (a bound that is not ``len(a)``, ``a.shape[d]``, a name
unpacked once from ``a.shape``, or the size the factory gave).

What the analysis checks: the three loops are ``for x in range(bound)`` over distinct names, each
the only statement of the one around it, without ``else``; the innermost body is the one statement
``c[p, q] += x[p, r] * y[r, q]`` (either order of the product; ``c[p][q]`` chains too), where ``p``,
``q``, ``r`` are the three loops' names in any nesting order; ``c`` is made by a torch or NumPy
factory just before the outer loop, without keywords (so it is a new object on the CPU, of the
default floating dtype); ``x`` and ``y`` are, in the run, 2-D tensors (or arrays, for a NumPy ``c``)
of that same dtype, tensors on the CPU, and nothing in the function or cell binds them again (the
live objects are what the loops read); ``p`` and ``q`` are not read after the loops (the rewrite
leaves them unbound; ``r`` ends as it did). Not "measure first" for tensors (a step costs about
what one scalar step did); for NumPy it is (a step costs five scalar steps).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import assigned_names, call_name, names_in, walk_all
from ...fixes.edits import Edits
from ..facts import Facts
from ..result_types import is_a, live_value
from .scatter_stores import _indices, _maker


def matmul_store(cell: ParsedCell, loop: cst.For, edits: Edits, facts: Facts) -> Edits | str | None:
    """The rewrite, why there is none, or None when ``loop`` is not one of three nested index loops
    around one ``+=`` store."""
    nest = _nest(cell, loop)
    if nest is None:
        return None
    found = {str(x.target.value): _bound(x) for x in nest}  # type: ignore[attr-defined]
    body = nest[2].body.body if isinstance(nest[2].body, cst.IndentedBlock) else []
    small = body[0].body[0] if (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
                                and len(body[0].body) == 1) else None
    if not isinstance(small, cst.AugAssign) or len(found) != 3:
        return None
    bounds = {name: bound for name, bound in found.items() if bound is not None}
    if len(bounds) != 3:
        return None
    if not (isinstance(small.operator, cst.AddAssign) and isinstance(small.value, cst.BinaryOperation)
            and isinstance(small.value.operator, cst.Multiply)):
        return "the innermost loop does not add a product of two elements into one place"
    store = _indices(small.target)
    left, right = _indices(small.value.left), _indices(small.value.right)
    if store is None or left is None or right is None or not all(
            len(parts) == 2 and all(isinstance(p, cst.Name) for p in parts) for _, parts in (store, left, right)):
        return "the store and the product are not elements indexed by two of the loops' names each"
    owner, (p, q) = store[0], [n.value for n in store[1]]  # type: ignore[attr-defined]
    (lx, (li, lk)), (ry, (rk, rj)) = ((name, [n.value for n in parts]) for name, parts in (left, right))  # type: ignore[attr-defined]
    if (li, rj) != (p, q) and (rk, lk) == (p, q):  # b[k, j] * a[i, k]: the same product, written backwards
        (lx, (li, lk)), (ry, (rk, rj)) = (ry, (rk, rj)), (lx, (li, lk))
    rest = sorted(set(bounds) - {p, q})
    r = rest[0] if len(rest) == 1 else ""
    if not r or (li, lk, rk, rj) != (p, r, r, q):
        return "the loops do not sum x[i, k] * y[k, j] over k into c[i, j]"
    lib = _maker(cell, nest[0], owner, facts)
    if lib is None:
        return f"{owner} is not a tensor or an array made just before the loops"
    if any(arg.keyword is not None for arg in _made_by(cell, nest[0]).args):
        return f"{owner} is made with its own dtype or device, which the product would not have"
    if owner in (lx, ry):
        return f"the product reads {owner} itself"
    if any({p, q} & names_in(s) for s in cell.following(nest[0])):
        return f"{p} or {q} is read after the loops, where the rewrite leaves it unbound"
    scope = _scope(cell, nest[0])
    rebound = assigned_names(scope) - {owner}
    for name in (lx, ry):
        if name in rebound:
            return f"{name} is bound again in {_scope_name(scope)}: the run does not tell what the loops read"
        why = _operand(live_value(facts, cst.Name(name)), lib, name)
        if why is not None:
            return why
    full = {name: _dims(scope, nest[0], name) for name in (lx, ry, owner)}
    n, m, steps = bounds[p], bounds[q], bounds[r]
    shape = [a.value for a in _made_by(cell, nest[0]).args]
    if len(shape) == 1 and isinstance(shape[0], cst.Tuple):  # np.zeros((n, m))
        shape = [e.value for e in shape[0].elements]
    full[owner] = [_code(d) for d in shape] if len(shape) == 2 else []
    column = _sliced(lx, (n, f"{r}:{r} + 1"), full[lx])
    row = _sliced(ry, (f"{r}:{r} + 1", m), full[ry])
    edits.title = "Add one outer product per step"
    # a torch step costs what one scalar step did (3.7 ms against 7.0 ms for a 1 x 1 result over 500
    # terms), a NumPy one five times more (28 ms against 5.7 ms): NumPy pays only for larger results
    edits.measure_first = None if lib == "torch" else (
        "one NumPy outer product per step pays when the result has more than about ten elements")
    edits.replace[nest[0]] = cst.parse_statement(
        f"for {r} in range({steps}):\n    {_sliced(owner, (n, m), full[owner])} += {column} * {row}\n")
    return edits


def _nest(cell: ParsedCell, loop: cst.For) -> list[cst.For] | None:
    """The three loops, outermost first, when ``loop`` is one of three ``for`` loops nested with
    nothing else in the outer two."""
    outer = loop
    while True:
        block_node = cell.parents.get(outer)
        parent = cell.parents.get(block_node) if block_node is not None else None  # IndentedBlock -> For
        if not (isinstance(parent, cst.For) and isinstance(parent.body, cst.IndentedBlock)
                and len(parent.body.body) == 1 and parent.body.body[0] is outer):
            break
        outer = parent
    nest = [outer]
    while len(nest) < 4:
        block = nest[-1].body.body if isinstance(nest[-1].body, cst.IndentedBlock) else []
        if not (len(block) == 1 and isinstance(block[0], cst.For)):
            break
        nest.append(block[0])
    ok = len(nest) == 3 and all(isinstance(x.target, cst.Name) and x.orelse is None and x.asynchronous is None
                                for x in nest)
    return nest if ok else None


def _bound(loop: cst.For) -> str | None:
    it = loop.iter
    if isinstance(it, cst.Call) and call_name(it) == "range" and len(it.args) == 1 and it.args[0].keyword is None \
            and it.args[0].star == "":
        return _code(it.args[0].value)
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _made_by(cell: ParsedCell, loop: cst.For) -> cst.Call:
    """The factory call of the statement just before the loops (``_maker`` checked that it is one)."""
    last = cell.preceding(loop)[-1]
    return last.body[0].value  # type: ignore[attr-defined,no-any-return]


def _operand(obj: Any, lib: str, name: str) -> str | None:
    """Why ``obj`` cannot be a factor of the product, or None."""
    kind = "torch.Tensor" if lib == "torch" else "numpy.ndarray"
    if not is_a(obj, kind):
        return f"the run does not show {name} as a {'tensor' if lib == 'torch' else 'NumPy array'}"
    if getattr(obj, "ndim", None) != 2:
        return f"{name} is not 2-D: its elements are not numbers"
    if lib == "torch":
        import torch  # the run holds a tensor, so torch is loaded

        default: Any = torch.get_default_dtype()
    else:
        import numpy as np

        default = np.dtype(float)
    if obj.dtype != default:
        return f"{name} holds {obj.dtype}, not the {default} the loops added into"
    if lib == "torch" and obj.device.type != "cpu":
        return f"{name} is on {obj.device}, and the loops added into a tensor on the CPU"
    return None


def _scope(cell: ParsedCell, node: cst.CSTNode) -> cst.CSTNode:
    at: cst.CSTNode | None = cell.parents.get(node)
    while at is not None and not isinstance(at, (cst.FunctionDef, cst.Module)):
        at = cell.parents.get(at)
    return at if at is not None else node


def _scope_name(scope: cst.CSTNode) -> str:
    return scope.name.value if isinstance(scope, cst.FunctionDef) else "the cell"


def _dims(scope: cst.CSTNode, loop: cst.For, name: str) -> list[str]:
    """The spellings of each dimension of ``name`` as the loops' bounds may write them: ``len(a)``,
    ``a.shape[0]``, and the names of a ``rows, cols = a.shape`` in the same block before the loops."""
    dims = [[f"len({name})", f"{name}.shape[0]"], [f"{name}.shape[1]"]]
    body = getattr(scope, "body", None)
    statements = body.body if isinstance(body, cst.IndentedBlock) else (body if isinstance(body, (list, tuple)) else [])
    for statement in statements:
        if statement is loop:
            break
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and _code(small.value) == f"{name}.shape" \
                and isinstance(small.targets[0].target, cst.Tuple) and len(small.targets[0].target.elements) == 2:
            for d, element in enumerate(small.targets[0].target.elements):
                if isinstance(element.value, cst.Name) and _bindings(scope, element.value.value) == 1:
                    dims[d].append(element.value.value)
    return ["|".join(d) for d in dims]


def _bindings(scope: cst.CSTNode, name: str) -> int:
    """How many statements of ``scope`` bind ``name`` (a parameter counts as one more)."""
    kinds = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.Param)
    return sum(1 for n in walk_all(scope) if isinstance(n, kinds)
               and name in names_in(n.name if isinstance(n, cst.Param) else n.target))


def _sliced(name: str, bounds: tuple[str, str], full: list[str]) -> str:
    """``a[:n, k:k + 1]``: a bound is the end of a slice from 0 (left out where it is the whole
    dimension: ``a`` itself when both are), or a slice of its own (``k:k + 1``)."""
    whole = [len(full) > d and bounds[d] in full[d].split("|") for d in range(2)]
    if all(whole):
        return name
    parts = [":" if whole[d] else (bounds[d] if ":" in bounds[d] else f":{bounds[d]}") for d in range(2)]
    return f"{name}[{parts[0]}]" if parts[1] == ":" else f"{name}[{', '.join(parts)}]"
