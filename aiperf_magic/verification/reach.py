"""What a cell can reach: the user functions it may call and the globals and closure cells they name.

One walk, shared by what needs it: :class:`.restore.Snapshot` (what to put back after an in-process
run), :mod:`.outside` (what, among those, hands work or bytes to something outside the trial) and
the comparison (names a called function may change). Only user code is followed (functions and
classes written in the notebook or in the user's own modules, not libraries); module attributes are
followed only where the code names them (``np.random`` from ``np``, not all of NumPy).
"""

from __future__ import annotations

import types
from typing import Any

from ..usercode import LIBRARY_ROOTS, is_user_code, is_user_code_type
from .sandbox import ATOMIC, SHARED

__all__ = ["LIBRARY_ROOTS", "MAX_FUNCTIONS", "Reach", "code_names", "is_user_code", "is_user_code_type"]

MAX_FUNCTIONS = 500


def code_names(code: types.CodeType) -> set[str]:
    """Every global or attribute name a code object (and the code nested in it) mentions."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= code_names(const)
    return names


class Reach:
    """Walks from code to what it can reach; subclasses act on each global and closure cell found.

    ``found_global(globals_, name, top)`` is called for each global a walked code object names
    (``top``: named by the cell itself, not by a function it calls); ``found_cell(cell, value)`` for
    each closure cell of a reachable function. Both are no-ops here.
    """

    def __init__(self) -> None:
        self.functions = 0
        self._seen: set[int] = set()

    def found_global(self, globals_: dict[str, Any], name: str, top: bool) -> None:
        pass

    def found_cell(self, cell: Any, value: Any) -> None:
        pass

    def code(self, code: types.CodeType, globals_: dict[str, Any], top: bool = False) -> None:
        names = code_names(code)
        for name in names:
            if name in globals_:
                self.found_global(globals_, name, top)
                value = globals_[name]
                if isinstance(value, types.ModuleType):
                    for attr in names & set(vars(value)):
                        self.follow(vars(value)[attr])
                else:
                    self.follow(value)

    def follow(self, value: Any) -> None:
        if id(value) in self._seen or self.functions >= MAX_FUNCTIONS:
            return
        self._seen.add(id(value))
        if isinstance(value, (types.MethodType, staticmethod, classmethod)):
            return self.follow(value.__func__)
        if isinstance(value, property):
            for f in (value.fget, value.fset, value.fdel):
                if f is not None:
                    self.follow(f)
            return None
        if isinstance(value, type):
            for attr in vars(value).values():
                if isinstance(attr, (types.FunctionType, staticmethod, classmethod, property)):
                    self.follow(attr)
            return None
        if isinstance(value, types.FunctionType) and is_user_code(value.__code__):
            self.functions += 1
            for cell in value.__closure__ or ():
                try:
                    contents = cell.cell_contents
                except ValueError:  # an empty cell: a name bound later
                    continue
                self.found_cell(cell, contents)
                self.follow(contents)
            self.code(value.__code__, value.__globals__)
            return None
        if not isinstance(value, (*ATOMIC, *SHARED)) and is_user_code_type(type(value)):
            self.follow(type(value))  # methods of the user's own classes, called on instances
        return None
