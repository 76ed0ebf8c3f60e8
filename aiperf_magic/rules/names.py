"""Qualified names: what a name in a cell refers to, from imports or from the live namespace.

The rules match canonical dotted names (``torch.utils.data.DataLoader``), whatever the user called
them (``DL``, ``tud.DataLoader``, ``T.utils.data.DataLoader``). Resolution looks, in order, at the
cell's own imports, then names imported by earlier cells, then the live namespace. Objects in the
namespace are described from their type's module and name only, so torch and pandas are never
imported here.
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

# Private module paths -> the public path the rules are written against (longest prefix wins).
_CANON_PREFIXES: tuple[tuple[str, str], ...] = (
    ("torch.utils.data.dataloader.", "torch.utils.data."),
    ("torch.utils.data.dataset.", "torch.utils.data."),
    ("torch.amp.autocast_mode.autocast", "torch.autocast"),
    ("torch.amp.autocast_mode.", "torch.amp."),
    ("torch.amp.grad_scaler.", "torch.amp."),
    ("torch.cuda.amp.autocast_mode.", "torch.cuda.amp."),
    ("torch.cuda.amp.grad_scaler.", "torch.cuda.amp."),
    ("torch._VariableFunctionsClass.", "torch."),
    ("torch._C._VariableFunctions.", "torch."),
    ("torch._dynamo.eval_frame.OptimizedModule", "torch.compile"),
    ("torch.nn.modules.module.Module", "torch.nn.Module"),
    ("torch.nn.modules.", "torch.nn."),
    ("pandas.core.frame.DataFrame", "pandas.DataFrame"),
    ("pandas.core.series.Series", "pandas.Series"),
    ("pandas.io.parsers.readers.", "pandas."),
    ("pandas.io.parquet.", "pandas."),
    ("pandas.core.reshape.concat.", "pandas."),
    ("concurrent.futures.thread.", "concurrent.futures."),
    ("concurrent.futures.process.", "concurrent.futures."),
    ("urllib.request.urlopen", "urllib.request.urlopen"),
    ("numpy.lib.function_base.", "numpy."),
    ("distributed.client.", "distributed."),
    ("dask.distributed.", "distributed."),
    ("numpy.core.", "numpy."),
)

_BUILTINS = frozenset(dir(builtins))
_USUAL = {"numpy": "np", "pandas": "pd", "torch.nn.functional": "F"}
_CONVENTIONS = {"torch": "torch", "np": "numpy", "numpy": "numpy", "pd": "pandas", "pandas": "pandas", "nn": "torch.nn"}


def canonical(qname: str) -> str:
    for prefix, repl in _CANON_PREFIXES:
        if qname.startswith(prefix):
            return repl + qname[len(prefix) :]
    return qname


def dotted(node: cst.BaseExpression) -> list[str] | None:
    """``a.b.c`` -> ["a", "b", "c"]; None for anything that is not a plain dotted name."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    parts.reverse()
    return parts


def module_name(node: cst.BaseExpression | None) -> str | None:
    """Dotted text of an import's module expression (``a.b.c``)."""
    if node is None:
        return None
    parts = dotted(node)  # type: ignore[arg-type]
    return ".".join(parts) if parts else None


def object_qname(obj: Any) -> str | None:
    """The canonical qualified name of a module, class or function object (None for the rest)."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    library = type(obj).__module__.split(".")[0] in _LIBRARIES and callable(obj)
    if not isinstance(obj, _NAMED_OBJECTS) and not library:
        return None  # instances: their type tells what they are (see symbols.live_symbol)
    try:  # NumPy's functions are dispatcher objects and its ufuncs have no __module__
        mod = getattr(obj, "__module__", None) or type(obj).__module__.split(".")[0]
        qual = getattr(obj, "__qualname__", None) or obj.__name__
    except Exception:  # an object whose attributes raise is simply not a known name
        return None
    if isinstance(mod, str) and isinstance(qual, str) and "<" not in qual:
        return canonical(f"{mod}.{qual}")
    return None


_LIBRARIES = frozenset({"numpy", "torch", "pandas"})
_NAMED_OBJECTS = (
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
)


def type_names(obj: Any) -> list[str]:
    """Canonical names of every class in ``type(obj)``'s MRO (no imports needed)."""
    return [canonical(f"{c.__module__}.{c.__qualname__}") for c in type(obj).__mro__]


@dataclass
class Names:
    """Name -> qualified name for one cell, falling back to earlier cells and the namespace."""

    local: dict[str, str] = field(default_factory=dict)
    earlier: dict[str, str] = field(default_factory=dict)
    namespace: Mapping[str, Any] | None = None

    def bind_import(self, node: cst.Import | cst.ImportFrom) -> list[tuple[cst.ImportAlias, str]]:
        """Record the names an import binds; returns (alias node, full qualified name) pairs."""
        out: list[tuple[cst.ImportAlias, str]] = []
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = module_name(alias.name) or ""
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self.local[alias.asname.name.value] = full
                else:
                    head = full.split(".")[0]
                    self.local[head] = head
                out.append((alias, full))
            return out
        if node.relative or isinstance(node.names, cst.ImportStar):
            return out
        base = module_name(node.module) or ""
        for alias in node.names:
            name = module_name(alias.name) or ""
            full = f"{base}.{name}"
            bound = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                bound = alias.asname.name.value
            self.local[bound] = canonical(full)
            out.append((alias, full))
        return out

    def head(self, name: str) -> str | None:
        if name in self.local:
            return self.local[name]
        if name in self.earlier:
            return self.earlier[name]
        ns = self.namespace
        if ns is not None and name in ns:
            return object_qname(ns[name])
        if name in _BUILTINS:
            return f"builtins.{name}"
        # Not imported where we can see it (``from utils import *``, a module imported elsewhere):
        # these spellings name the same libraries in practically all code.
        return _CONVENTIONS.get(name)

    def qname(self, node: cst.BaseExpression) -> str | None:
        parts = dotted(node)
        if not parts:
            return None
        head = self.head(parts[0])
        if head is None:
            return None
        return canonical(".".join([head, *parts[1:]]))

    def bound_to(self, qname: str) -> str | None:
        """A name that earlier cells or the live namespace already bind to ``qname`` (a module, or
        a class or function of one), unless this cell binds it to something else: a rewrite uses it
        rather than importing it again. The usual spelling (``np``, the last part) is preferred."""
        usual = [n for n in (_USUAL.get(qname), qname.rsplit(".", 1)[-1], qname) if n]
        for name in [*usual, *self.earlier]:
            if self.local.get(name, qname) == qname and self.earlier.get(name) == qname:
                return name
        ns = self.namespace
        if ns is None:
            return None
        candidates = [n for n in usual if n in ns] + [n for n, v in ns.items() if isinstance(v, types.ModuleType)]
        for name in candidates:
            if not name.startswith("_") and self.local.get(name, qname) == qname and name.isidentifier() \
                    and object_qname(ns[name]) == qname:
                return name
        return None

    def holds(self, name: str) -> bool:
        """An earlier cell or the live namespace binds ``name`` (to anything)."""
        return name in self.earlier or (self.namespace is not None and name in self.namespace)

    def live(self, name: str) -> Any:
        """The namespace object bound to ``name``, unless the cell or an earlier one rebinds it."""
        if self.namespace is None or name in self.local or name in self.earlier:
            return None
        return self.namespace.get(name)
