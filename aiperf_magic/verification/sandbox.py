"""The sandbox a before/after run executes in: which names a cell reads and writes, and copies of
the user's values that the run may change freely.

Copies are type-aware (NumPy ``copy``, pandas ``copy(deep=True)``, torch ``detach().clone()``,
``deepcopy`` otherwise), and values that cannot be copied safely are refused with a reason rather
than shared. pandas and torch are only looked up in ``sys.modules``: this module never imports them.
"""

from __future__ import annotations

import ast
import builtins
import copy
import io
import sys
import types
from collections.abc import Iterator
from typing import Any

ATOMIC = (int, float, complex, str, bytes, bool, type(None), range, slice)
SHARED = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type, types.MethodType)


class Refused(Exception):
    """An input the sandbox will not copy (open file, generator, tensor too large for the GPU)."""


class _Flow(ast.NodeVisitor):
    """Walks a cell in execution order: a name loaded before any store is an input."""

    def __init__(self) -> None:
        self.stored: set[str] = set()
        self.inputs: list[str] = []
        self.loop_targets: set[str] = set()
        self.free_in_defs: set[str] = set()
        self.inner_stores: set[str] = set()  # names bound inside functions, lambdas, comprehensions
        self.depth = 0

    def load(self, name: str) -> None:
        if name not in self.stored and name not in self.inputs:
            self.inputs.append(name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if self.depth:
                self.free_in_defs.add(node.id)
            else:
                self.load(node.id)
        elif not self.depth:
            self.stored.add(node.id)
        else:
            self.inner_stores.add(node.id)

    def visit_arg(self, node: ast.arg) -> None:
        self.inner_stores.add(node.arg)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)  # the right side runs first
        for t in node.targets:
            self.visit(t)

    def visit_Delete(self, node: ast.Delete) -> None:
        for t in node.targets:  # ``del x`` needs x: an input, and afterwards no longer bound
            if isinstance(t, ast.Name) and not self.depth:
                self.load(t.id)
            else:
                self.visit(t)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            # x += 1 reads x: the cell's input at the top level, a local or free name in a function
            if self.depth:
                self.free_in_defs.add(node.target.id)
            else:
                self.load(node.target.id)
        self.visit(node.target)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        names = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        self.loop_targets |= names - self.stored
        self.visit(node.target)
        for s in [*node.body, *node.orelse]:
            self.visit(s)

    def _scope(self, node: ast.AST, name: str | None) -> None:
        if name and not self.depth:
            self.stored.add(name)
        elif name:  # a function defined inside a function binds its name there
            self.inner_stores.add(name)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for d in node.decorator_list:
            self.visit(d)
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scope(node, node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._scope(node, None)

    def _comprehension(self, node: ast.AST) -> None:
        self._scope(node, None)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension  # type: ignore[assignment]

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        if not self.depth:
            for a in node.names:
                self.stored.add((a.asname or a.name).split(".")[0])

    visit_ImportFrom = visit_Import  # type: ignore[assignment]


def reads_and_writes(source: str) -> tuple[list[str], set[str], set[str]]:
    """(inputs, outputs, loop-only names) of a cell; inputs exclude builtins."""
    flow = _Flow()
    flow.visit(ast.parse(source))
    # a name read inside a function or comprehension and bound nowhere in the cell comes from outside
    inputs = list(flow.inputs) + sorted(flow.free_in_defs - flow.stored - flow.inner_stores - set(flow.inputs))
    inputs = [n for n in inputs if not hasattr(builtins, n)]
    return inputs, flow.stored, flow.loop_targets


def copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``value`` that a run may mutate without touching the user's object."""
    key = id(value)
    if key in memo:
        return memo[key]
    out = _copy(value, memo)
    memo[key] = out
    return out


# objects that stand for workers or connections rather than data: runs share them, never copy them
HANDLE_TYPES = (("concurrent.futures", "Executor"), ("multiprocessing.pool", "Pool"), ("socket", "socket"))
HANDLE_ROOTS = frozenset({"distributed", "ray", "threading", "_thread"})


def _shared_handle(value: Any) -> bool:
    if type(value).__module__.split(".")[0] in HANDLE_ROOTS:
        return True
    for module, name in HANDLE_TYPES:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and isinstance(value, cls):
            return True
    return False


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    if isinstance(value, (*ATOMIC, *SHARED)) or _shared_handle(value):
        return value
    if isinstance(value, io.IOBase):
        raise Refused(f"an open {type(value).__name__} handle cannot be copied")
    if isinstance(value, types.GeneratorType) or _is_iterator(value):
        raise Refused(f"a {type(value).__name__} can be consumed only once, so it cannot be run twice")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return value.copy()
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(value, (pd.DataFrame, pd.Series, pd.Index)):
        return value.copy(deep=True)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return _copy_tensor(torch, value)
    if isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(v, ATOMIC) for v in value):
        return type(value)(value) if not isinstance(value, tuple) else value  # items are immutable
    if isinstance(value, dict) and all(isinstance(v, ATOMIC) for v in value.values()):
        return dict(value)
    try:
        return copy.deepcopy(value, memo)
    except Exception as exc:
        raise Refused(f"a {type(value).__name__} could not be copied ({type(exc).__name__}: {exc})") from exc


def _is_iterator(value: Any) -> bool:
    try:
        return iter(value) is value
    except TypeError:
        return False


def _copy_tensor(torch: Any, t: Any) -> Any:
    if t.is_cuda:
        free, _total = torch.cuda.mem_get_info(t.device)
        if t.element_size() * t.nelement() * 2 > free:  # both runs' copies must fit
            raise Refused(f"a {tuple(t.shape)} CUDA tensor needs more GPU memory than is free to copy")
    out = t.detach().clone()
    return out.requires_grad_(t.requires_grad) if t.is_leaf else out


def sandbox(namespace: dict[str, Any], inputs: list[str]) -> dict[str, Any]:
    """A fresh namespace holding copies of ``inputs`` (only those present in ``namespace``)."""
    memo: dict[int, Any] = {}
    ns: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    for name in inputs:
        if name in namespace:
            ns[name] = copy_value(namespace[name], memo)
    return ns


def missing(namespace: dict[str, Any], inputs: list[str], writes: set[str]) -> list[str]:
    """Inputs absent from the namespace (the cells that define them have not run yet)."""
    return [n for n in inputs if n not in namespace and n not in writes]


def data_names(ns: dict[str, Any], names: Iterator[str] | set[str]) -> list[str]:
    """The names worth comparing: data, not modules, functions or classes."""
    return sorted(n for n in names if n in ns and not n.startswith("__") and not isinstance(ns[n], SHARED))


def size_of(value: Any) -> int:
    """Bytes held by a value (arrays, frames, tensors, modules' weights; shallow size otherwise)."""
    for attr in ("nbytes",):
        n = getattr(value, attr, None)
        if isinstance(n, int):
            return n
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(value, (pd.DataFrame, pd.Series)):
        return int(value.memory_usage(deep=False).sum()) if isinstance(value, pd.DataFrame) else int(value.nbytes)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return int(value.element_size() * value.nelement())
    if torch is not None and isinstance(value, torch.nn.Module):
        return sum(int(p.element_size() * p.nelement()) for p in value.state_dict().values())
    return sys.getsizeof(value)
