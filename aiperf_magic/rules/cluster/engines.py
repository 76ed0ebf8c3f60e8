"""What the cluster rules ask of the code: is this a Dask client, a Ray remote function, a tiny
function, does the notebook use Dask at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from ...cell.tree import walk_all
from ..facts import Call, Facts, Loop
from ..loops import few_iterations

CLUSTER_MODULES = ("dask", "distributed")
TINY_STATEMENTS = 3  # a function of at most this many statements, no loop and no call but builtins is "tiny"
CHEAP_MODULES = ("builtins.", "operator.", "math.")


def uses_dask(facts: Facts) -> bool:
    """The notebook imports Dask (any cell), or the live namespace holds a Dask object."""
    for cell in facts.cells():
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
    """The cell's ``@ray.remote`` function that ``node`` names."""
    if not isinstance(node, cst.Name):
        return None
    scope = facts.functions.get(node.value)
    fn = scope.node if scope is not None else None
    if not isinstance(fn, cst.FunctionDef):
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
    """A lambda, a builtin, or a function of the notebook of a few statements with no loop that
    calls nothing but builtins (a call to anything else may be where the work is)."""
    if isinstance(fn, cst.Lambda):
        return _cheap(facts, fn.body)
    qname = facts.names.qname(fn) if isinstance(fn, (cst.Name, cst.Attribute)) else None
    if qname is not None and qname.startswith(CHEAP_MODULES):
        return True
    if not isinstance(fn, cst.Name):
        return False
    scope = facts.functions.get(fn.value)
    node = scope.node if scope is not None else None
    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return False
    if len(node.body.body) > TINY_STATEMENTS:
        return False
    return _cheap(facts, node.body)


def _cheap(facts: Facts, body: cst.CSTNode) -> bool:
    loops = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
    for n in walk_all(body):
        if isinstance(n, loops):
            return False
        if isinstance(n, cst.Call) and not (facts.names.qname(n.func) or "").startswith(CHEAP_MODULES):
            return False
    return True


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

