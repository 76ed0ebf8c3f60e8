"""Whose code is this: the user's (written in the notebook or in the user's own modules) or a library's.

One rule, shared by what must tell them apart: the trials (which functions a cell can reach) and
the sampler (which line of which function a thread was on). Code is the user's when it was compiled
from a cell (``<ipython-input-...>``, a kernel's cell file, ``<string>`` from the user's ``exec``) or
from a file outside the interpreter's installation (``sys.prefix``, site-packages, the standard
library); aiperf's own code is never the user's, wherever it is installed. Imports nothing of aiperf.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import types

LIBRARY_ROOTS = tuple(
    {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, *sysconfig.get_paths().values()) if p}
)
# aiperf's own package: a checkout outside site-packages holds library code all the same
OWN_ROOT = os.path.dirname(os.path.realpath(__file__)) + os.sep

_FILES: dict[str, bool] = {}  # file name -> user code; files do not move while the kernel runs


def is_user_file(name: str) -> bool:
    """Whether code compiled from file ``name`` (a code object's ``co_filename``) is the user's."""
    known = _FILES.get(name)
    if known is not None:
        return known
    if name.startswith("<frozen") or name.startswith("<aiperf"):
        user = name.startswith("<aiperf")  # aiperf's trials compile the user's own cell under this name
    elif name.startswith("<"):  # <ipython-input-...>, <string>: written in the notebook
        user = True
    else:
        path = os.path.realpath(name)
        user = not path.startswith(LIBRARY_ROOTS) and not path.startswith(OWN_ROOT)
    if len(_FILES) < 100_000:  # a process that compiles endless distinct names must not grow this
        _FILES[name] = user
    return user


def is_user_code(code: types.CodeType) -> bool:
    return is_user_file(code.co_filename)


def is_user_code_type(cls: type) -> bool:
    module = sys.modules.get(cls.__module__)
    if cls.__module__ == "__main__":
        return True
    file = getattr(module, "__file__", None) if module is not None else None
    return file is not None and is_user_file(file)
