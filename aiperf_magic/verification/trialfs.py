"""Files a trial process writes for itself, in its private folder, whatever protects the rest.

With Landlock, writes inside the trial's folder are allowed by path. Without it the syscall filter
refuses every open for writing by path, and allows only opens relative to the folder's own
descriptor (:func:`.isolate.lock_down` sets :data:`FOLDER_FD`); :func:`open_private` goes that way.
"""

from __future__ import annotations

import os
from typing import IO, Any

from . import guard

FOLDER = ""  # the trial's private folder, once the filter refuses writes by path
FOLDER_FD = -1  # its descriptor, relative to which the filter allows opens


def open_private(path: str, mode: str = "rb", **kwargs: Any) -> IO[Any]:
    """``open(path, mode)`` for a file inside the trial's own folder."""
    if FOLDER_FD < 0 or not any(c in mode for c in "wax+"):
        return open(path, mode, **kwargs)
    name = os.path.relpath(os.path.realpath(path), FOLDER)
    if name.startswith(os.pardir):
        raise PermissionError(1, "not inside the trial's folder", path)
    active, guard.STATE.active = guard.STATE.active, False  # the audit hook would read the name as relative to cwd
    try:
        return open(name, mode, opener=lambda p, flags: os.open(p, flags, 0o600, dir_fd=FOLDER_FD), **kwargs)
    finally:
        guard.STATE.active = active
