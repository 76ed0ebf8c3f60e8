"""What the cluster rules ask of the code: is this a Dask client, a Ray remote function, a tiny
function, does the notebook use Dask at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from ...cell.tree import walk_all
from ..facts import Call, Facts, Loop
from ..loops import few_iterations
from ..work import definition

CLUSTER_MODULES = ("dask", "distributed")
TINY_STATEMENTS = 3  # a function of at most this many statements, no loop and no call but builtins is "tiny"
CHEAP_MODULES = ("builtins.", "operator.", "math.")
# Builtins that walk a whole collection when given one: ``sum(part)`` is a loop over a batch.
ITERATING = frozenset(
    f"builtins.{name}"
    for name in ("sum", "min", "max", "sorted", "any", "all", "list", "tuple", "set", "frozenset", "dict", "reversed")
) | {"math.fsum", "math.prod"}
# Picking one item out of a result that stays on the cluster (``client.submit(getitem, future, i)``,
# Dask's way to fan a remote list out to per-item tasks): addressing, not work to batch.
SELECTION = frozenset({"operator.getitem", "builtins.getattr"})
LITERALS = (cst.List, cst.Tuple, cst.Set, cst.Dict, cst.Integer, cst.Float, cst.SimpleString)


def uses_dask(facts: Facts) -> bool:
    """The notebook imports Dask (any cell), or the live namespace holds a Dask object."""
    return facts.whole(_imports_dask)


def _imports_dask(cells: list[Facts]) -> bool:
    for cell in cells:
        names = [*cell.names.local.values(), *cell.names.earlier.values()]
        if any(n.split(".")[0] in CLUSTER_MODULES for n in names):
            return True
    return False


def is_dask_client(facts: Facts, node: cst.BaseExpression | None) -> bool:
    if facts.kind(node) == "dask_client":
        return True
    return isinstance(node, cst.Call) and facts.names.qname(node.func) in ("distributed.get_client",
                                                                          "distributed.default_client")


def ray_remote_function(facts: Facts, node: cst.BaseExpression) -> cst.FunctionDef | None:
    """The ``@ray.remote`` function of the notebook (this cell or an earlier one) that ``node`` names."""
    fn = definition(facts, node.value) if isinstance(node, cst.Name) else None
    if fn is None:
        return None
    for deco in fn.decorators:
        target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
        if facts.names.qname(target) == "ray.remote":
            return fn
    return None


def submitted(facts: Facts, call: Call) -> cst.BaseExpression | None:
    """The function a call sends to the cluster as one task: ``client.submit(f, x)`` -> ``f``,
    ``f.remote(x)`` -> ``f``; None for any other call."""
    if call.method == "submit" and is_dask_client(facts, call.receiver):
        first = call.positional(0)
        return first.value if first is not None else None
    if call.method == "remote" and call.receiver is not None and ray_remote_function(facts, call.receiver):
        return call.receiver
    return None


def tiny(facts: Facts, fn: cst.BaseExpression) -> bool:
    """A lambda, a builtin, or a function of the notebook (this cell or an earlier one) of a few
    statements with no loop that calls nothing but builtins (a call to anything else may be where
    the work is). Not a selection (``operator.getitem``), nor a function that walks a whole
    collection (``sum(part)``: its argument is already a batch)."""
    if isinstance(fn, cst.Lambda):
        return _cheap(facts, fn.body)
    node = definition(facts, fn.value) if isinstance(fn, cst.Name) else None  # before builtins: a ``def map``
    if node is not None:
        body = node.body
        return isinstance(body, cst.IndentedBlock) and len(body.body) <= TINY_STATEMENTS and _cheap(facts, body)
    qname = facts.names.qname(fn) if isinstance(fn, (cst.Name, cst.Attribute)) else None
    return qname is not None and qname.startswith(CHEAP_MODULES) and qname not in SELECTION | ITERATING


def _cheap(facts: Facts, body: cst.CSTNode) -> bool:
    loops = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
    for n in walk_all(body):
        if isinstance(n, loops):
            return False
        if isinstance(n, cst.Call) and (
            not (facts.names.qname(n.func) or "").startswith(CHEAP_MODULES) or _iterates(facts, n)
        ):
            return False
    return True


def _iterates(facts: Facts, call: cst.Call) -> bool:
    """``sum(xs)``, ``sorted(xs)``, ``max(xs)``: a builtin walking a collection (not ``max(a, b)``)."""
    if facts.names.qname(call.func) not in ITERATING:
        return False
    pos = [a for a in call.args if a.keyword is None]
    return len(pos) == 1 and not isinstance(pos[0].value, LITERALS)


def first_in_each_loop(facts: Facts, matches: Callable[[Call, Loop], bool]) -> Iterator[cst.CSTNode]:
    """The first call in each loop (not in a loop nested in it) that ``matches``, for loops that
    run more than a few times: one finding per loop."""
    for loop in facts.loops:
        if few_iterations(facts, loop):
            continue
        for call in loop.calls:
            if call.loop is loop and matches(call, loop):
                yield call.node
                break
