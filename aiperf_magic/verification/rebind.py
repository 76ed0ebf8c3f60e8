"""Trying a rewrite of a function that an earlier cell defined.

The measured cell only calls the function (``result = compute_reciprocals(big_array)``); its rewrite
belongs to the cell that defined it. A Try of that rewrite runs the measured cell unchanged in both
versions, and in the rewritten version's trials the rewritten definitions run first (``verify(...,
rebind=...)``), so that the cell calls them: the new ``def`` binds the function's name in the
trial's copy of the kernel, as running the edited earlier cell would in the kernel. The definitions
run before each run of the rewritten version, untimed, under the trial's guard (a decorator is user
code), and the names they bind are not compared: they are the rewrite itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

LABEL = "<aiperf rebind>"
_MISSING = object()


def compile_rebind(source: str) -> tuple[CodeType, set[str]]:
    """The definitions compiled, and the names they bind or delete at their top level (functions,
    classes, imports, assignments, ``del``). Raises SyntaxError."""
    tree = ast.parse(source, LABEL)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return compile(tree, LABEL, "exec"), names


@contextmanager
def rebinding(code: CodeType | None, globals_ns: dict[str, Any], cell_ns: dict[str, Any] | None = None,
              names: set[str] | frozenset[str] = frozenset()) -> Iterator[str | None]:
    """Run the rewritten definitions in ``globals_ns`` (the namespace the functions read as their
    globals) for the duration of the block; the block gets None, or why the definitions failed
    (their exception, or the guard's refusal: a decorator that writes a file), and then must not run
    the cell.

    In a forked trial both namespaces are the copy's own and nothing needs putting back. In-process
    (``cell_ns`` is the run's copy of the inputs, ``globals_ns`` the kernel's namespace), the new
    bindings are also placed in ``cell_ns``, and the kernel's own bindings of ``names`` (what the
    definitions bind or delete) are put back when the block ends, whatever happened in it."""
    if code is None:
        yield None
        return
    saved = {n: globals_ns.get(n, _MISSING) for n in names} if cell_ns is not None else {}
    try:
        try:
            exec(code, globals_ns)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # the guard's refusal is a BaseException: it must not pass as the cell's
            yield f"the rewritten definitions raised before the cell ran: {type(exc).__name__}: {exc}"
            return
        if cell_ns is not None:
            for n in names:
                if n in globals_ns:
                    cell_ns[n] = globals_ns[n]
                else:
                    cell_ns.pop(n, None)
        yield None
    finally:
        for n, value in saved.items():
            if value is _MISSING:
                globals_ns.pop(n, None)
            else:
                globals_ns[n] = value
