"""SQLite inside a trial: in-memory databases are fine, database files are refused, ATTACH included.

The audit hook sees ``sqlite3.connect(name)`` but not whether the name is a URI (``uri=True``), and
not the ``ATTACH DATABASE 'real.db'`` that a ``:memory:`` connection can run to write a file. So, in
a guarded process, ``sqlite3.connect`` is wrapped: it decides from the name *and* ``uri`` (a file
whose name merely contains "memory" is a file), and gives every connection it opens an authorizer
that refuses to attach a database file. Connections made another way fall back to the audit
hook's conservative rule: only ``""`` and ``":memory:"`` are in memory.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from . import guard

_SQLITE_ATTACH, _SQLITE_DENY = 24, 1
_URI_ARG = 6  # connect(database, timeout, detect_types, isolation_level, check_same_thread, factory, cached, uri)


in_memory = guard.sqlite_in_memory


def _name(database: Any) -> str:
    return os.fsdecode(database) if isinstance(database, (str, bytes, os.PathLike)) else str(database)


def _guarded() -> bool:
    return guard.STATE.active and threading.get_ident() not in guard.STATE.exempt


def _authorize(action: int, arg1: str | None, *rest: Any) -> int:
    name = arg1 or ""
    if action != _SQLITE_ATTACH or not _guarded():
        return 0
    if in_memory(name, uri=name.startswith("file:")) or guard.inside(name, guard.STATE.allowed_dir):
        return 0
    if guard.STATE.blocked is None:
        guard.STATE.blocked = guard.where(f"attaches the SQLite database {name}")
    return _SQLITE_DENY


def _wrap(original: Any) -> Any:
    def connect(database: Any, *args: Any, **kwargs: Any) -> Any:
        if not _guarded():
            return original(database, *args, **kwargs)
        db = _name(database)
        uri = bool(kwargs.get("uri", args[_URI_ARG] if len(args) > _URI_ARG else False))
        if not (in_memory(db, uri) or guard.inside(db, guard.STATE.allowed_dir)):
            guard.refuse(f"opens the SQLite database {db}")
        guard.SQLITE_JUDGED.on = True
        try:
            con = original(database, *args, **kwargs)
        finally:
            guard.SQLITE_JUDGED.on = False
        con.set_authorizer(_authorize)
        return con

    connect.__wrapped__ = original  # type: ignore[attr-defined]
    return connect


def patch() -> None:
    """Wrap ``sqlite3.connect`` (importing the standard library's sqlite3 if the user has not)."""
    import sqlite3
    import sqlite3.dbapi2

    for module in (sqlite3, sqlite3.dbapi2):
        if not hasattr(module.connect, "__wrapped__"):
            module.connect = _wrap(module.connect)
