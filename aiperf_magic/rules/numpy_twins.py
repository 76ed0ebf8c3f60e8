"""NumPy twins of the notebook's numeric helpers, for element-wise rewrites that call them.

``df.apply(lambda row: haversine(40.67, -73.98, row["lat"], row["lon"]), axis=1)`` calls a helper of
several statements per row. Its body is element-wise arithmetic on its parameters, one assignment
after another: the same statements with ``math`` functions written as NumPy's compute it on whole
columns. The rewrite defines that twin (``haversine_np``) just before the statement it rewrites and
calls it on the columns; the user's own helper stays as it is, for its other callers (NumPy's
functions return NumPy scalars where ``math`` returned floats).

A helper has a twin when its parameters are plain positional ones and its body is, after an optional
docstring, assignments of element-wise expressions (:mod:`.elementwise`) to names, or of
``map(math.radians, [a, b])`` to a tuple of names, then one ``return`` of an element-wise
expression. Anything else (a branch, a loop, a call of another kind, an attribute store) means no
twin, and the rewrite is refused as before.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..cell.parsed import ParsedCell
from ..cell.tree import call_name, names_in
from .elementwise import NUMPY_NAMES, UFUNCS, vectorise
from .facts import Facts
from .work import definition


class Twins:
    """The helpers' twins one rewrite needs: called with a helper's name, the twin's name (or None);
    ``definitions`` holds the code of each twin made, in the order they were asked for."""

    def __init__(self, cell: ParsedCell, facts: Facts, numpy: Callable[[], str]) -> None:
        self.cell, self.facts, self.numpy = cell, facts, numpy
        self.made: dict[str, str | None] = {}
        self.definitions: list[str] = []

    def __call__(self, name: str) -> str | None:
        if name in self.made:
            return self.made[name]
        self.made[name] = None  # a helper that calls itself has no twin
        func = definition(self.facts, name)
        twin = self.cell.fresh(f"{name}_np")
        code = self._twin(func, twin) if func is not None else None
        if code is not None:
            self.definitions.append(code)
            self.made[name] = twin
        return self.made[name]

    def _twin(self, func: cst.FunctionDef, twin: str) -> str | None:
        params = func.params
        if (params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.star_kwarg
                or params.posonly_params or any(p.default is not None for p in params.params)
                or func.decorators or func.asynchronous is not None or not isinstance(func.body, cst.IndentedBlock)):
            return None
        names = {p.name.value for p in params.params}
        body = list(func.body.body)
        lines: list[str] = []
        if body and _docstring(body[0]):
            body = body[1:]
        for i, statement in enumerate(body):
            one = isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            small = statement.body[0] if one else None  # type: ignore[attr-defined]
            last = i == len(body) - 1
            if last and isinstance(small, cst.Return) and small.value is not None:
                value = self._vector(small.value, names)
                if value is None:
                    return None
                lines.append(f"return {value}")
                break
            line = self._assignment(small, names) if not last else None
            if line is None:
                return None
            lines.append(line)
        else:
            return None
        head = ", ".join(p.name.value for p in params.params)
        text = "\n".join(f"    {line}" for line in lines)
        return f"\n\ndef {twin}({head}):  # {func.name.value} on whole columns (NumPy)\n{text}\n\n\n"

    def _assignment(self, small: cst.BaseSmallStatement | None, names: set[str]) -> str | None:
        if not isinstance(small, cst.Assign) or len(small.targets) != 1:
            return None
        target, value = small.targets[0].target, small.value
        if isinstance(target, cst.Name):
            if not names_in(value) & names:  # a constant of the helper (r = 6371.0)
                out = _code(value) if _constant(value) else None
            else:
                out = self._vector(value, names)
            if out is None:
                return None
            names.add(target.value)
            return f"{target.value} = {out}"
        if isinstance(target, cst.Tuple) and all(isinstance(e.value, cst.Name) for e in target.elements):
            out = self._mapped(value, names)
            if out is None:
                return None
            names.update(e.value.value for e in target.elements)  # type: ignore[attr-defined]
            return f"{', '.join(e.value.value for e in target.elements)} = {out}"  # type: ignore[attr-defined]
        return None

    def _mapped(self, value: cst.BaseExpression, names: set[str]) -> str | None:
        """``map(math.radians, [a, b])`` -> ``map(np.radians, [a, b])``; ``(e1, e2)`` element-wise."""
        if isinstance(value, cst.Call) and call_name(value) == "map" and len(value.args) == 2:
            head, _, leaf = _code(value.args[0].value).rpartition(".")
            items = value.args[1].value
            if head not in ("math", "np", "numpy") or leaf not in UFUNCS or not isinstance(
                    items, (cst.List, cst.Tuple)):
                return None
            parts = [self._vector(e.value, names) for e in items.elements]
            if any(p is None for p in parts):
                return None
            return f"map({self.numpy()}.{NUMPY_NAMES.get(leaf, leaf)}, [{', '.join(parts)}])"  # type: ignore[arg-type]
        if isinstance(value, (cst.Tuple, cst.List)):
            parts = [self._vector(e.value, names) for e in value.elements]
            return None if any(p is None for p in parts) else ", ".join(parts)  # type: ignore[arg-type]
        return None

    def _vector(self, node: cst.BaseExpression, names: set[str]) -> str | None:
        def local(n: cst.CSTNode) -> str | None:
            return n.value if isinstance(n, cst.Name) and n.value in names else None

        return vectorise(node, local, set(names), self.numpy, helpers=self)


def _docstring(statement: cst.CSTNode) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _constant(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.UnaryOperation):
        return _constant(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _constant(node.left) and _constant(node.right)
    return False


def _code(node: cst.CSTNode) -> str:
    """The code of a node of any module (the helper may come from another cell's source)."""
    return cst.Module(body=[]).code_for_node(node)
