"""The audit-hook guard: a trial may compute anything, but may not reach the world outside its process.

``sys.addaudithook`` cannot be removed, so the hook is installed only where it can stay: in the
forked template of the trials (:func:`install_in_child`; each trial process then :func:`activate`s
it for good) or once per kernel for the in-process fallback (:func:`guarding`, a near no-op
whenever no trial runs). Refused: file writes, creates, deletes,
renames and mode changes (reading stays allowed; writes inside the trial's private temp folder are
allowed), network connections, binds and datagrams, subprocesses and shell escapes, forks, signals
to other processes, SQLite files (``:memory:`` allowed), writable shared memory maps. The first
refusal raises :class:`Blocked` (a ``BaseException``, so ``except Exception`` in the cell does not
swallow it) and is remembered with the cell line that caused it, even if the cell catches it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

TRIAL_FILES = ("<aiperf before>", "<aiperf after>")

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PATH_EVENTS = {
    "os.remove": "deletes {0}",
    "os.rmdir": "removes the folder {0}",
    "os.mkdir": "creates the folder {0}",
    "os.truncate": "truncates {0}",
    "os.chmod": "changes the permissions of {0}",
    "os.chown": "changes the owner of {0}",
    "os.utime": "changes the times of {0}",
    "os.setxattr": "changes attributes of {0}",
    "os.removexattr": "changes attributes of {0}",
    "shutil.rmtree": "deletes the folder {0}",
    "shutil.chown": "changes the owner of {0}",
}
_TWO_PATH_EVENTS = {
    "os.rename": "renames {0} to {1}",
    "os.link": "links {0} to {1}",
    "os.symlink": "links {1} to {0}",
    "shutil.copyfile": "copies {0} to {1}",
    "shutil.copymode": "copies the mode of {0} to {1}",
    "shutil.copystat": "copies the times of {0} to {1}",
    "shutil.copytree": "copies {0} to {1}",
    "shutil.move": "moves {0} to {1}",
}
_PROCESS_EVENTS = {
    "os.system": "runs the shell command {0}",
    "subprocess.Popen": "runs the command {1}",
    "os.posix_spawn": "runs the program {0}",
    "os.spawn": "runs the program {1}",
    "os.exec": "runs the program {0}",
    "os.fork": "starts a process (fork)",
    "os.forkpty": "starts a process (fork)",
    "os.kill": "sends a signal to process {0}",
    "os.killpg": "sends a signal to process group {0}",
    "signal.pthread_kill": "sends a signal to a thread",
    "webbrowser.open": "opens a web browser",
    "ctypes.call_function": "",  # allowed: too common to refuse (NumPy, torch); native writes are caught elsewhere
}
_NET_EVENTS = {"socket.connect": "connects to {1}", "socket.sendto": "sends to {1}", "socket.bind": "listens on {1}"}
WATCHED = frozenset(
    {"open", "sqlite3.connect", "mmap.__new__", "socket.sendmsg"}
    | set(_PATH_EVENTS)
    | set(_TWO_PATH_EVENTS)
    | set(_NET_EVENTS)
    | {k for k, v in _PROCESS_EVENTS.items() if v}
)


class Blocked(BaseException):
    """A trial tried to change something outside its own process; ``str()`` says what."""


@dataclass
class _State:
    active: bool = False
    allowed_dir: str = ""
    exempt: frozenset[int] = frozenset()  # in-process only: the kernel's own threads
    blocked: str | None = None  # "line 3 writes to out.txt", the first refusal
    side: str = ""


STATE = _State()
_installed = False
_lock = threading.Lock()


def describe(event: str, args: tuple[Any, ...], allowed_dir: str) -> str | None:
    """What a refused event does, in words; None when the event is allowed."""
    if event == "open":
        return _open(args, allowed_dir)
    if event == "sqlite3.connect":
        if getattr(SQLITE_JUDGED, "on", False):  # sqlite_guard's wrapper judged it, knowing ``uri``
            return None
        db = os.fsdecode(args[0]) if isinstance(args[0], (str, bytes, os.PathLike)) else str(args[0])
        return None if sqlite_in_memory(db, uri=False) or inside(db, allowed_dir) else f"opens the SQLite database {db}"
    if event == "mmap.__new__":  # (fileno, length, flags, prot) or (fileno, length, access, offset)
        fileno = args[0]
        shared_write = fileno != -1 and _mmap_writes(args)
        return "maps a file for writing (shared memory)" if shared_write else None
    if event in _PATH_EVENTS:
        path = _path(args[0])
        return None if inside(path, allowed_dir) else _PATH_EVENTS[event].format(path)
    if event in _TWO_PATH_EVENTS:
        src, dst = _path(args[0]), _path(args[1])
        if inside(dst, allowed_dir) and (event != "os.rename" or inside(src, allowed_dir)):
            return None
        return _TWO_PATH_EVENTS[event].format(src, dst)
    if event in _NET_EVENTS:
        return _NET_EVENTS[event].format(args[0], _address(args[1] if len(args) > 1 else None))
    if event == "socket.sendmsg":
        return "sends a network message"
    if event == "os.kill" and args and args[0] == os.getpid():
        return None
    if _PROCESS_EVENTS.get(event):
        return _PROCESS_EVENTS[event].format(*[_command(a) for a in args], *[""] * 3)
    return None


SQLITE_JUDGED = threading.local()  # set while sqlite_guard's own, already judged, connect runs


def sqlite_in_memory(db: str, uri: bool) -> bool:
    """SQLite's in-memory names: ``""``, ``":memory:"``, and with ``uri`` a ``file:`` URI with
    ``mode=memory`` or the path ``:memory:`` (a file whose name merely contains "memory" is a file)."""
    if db in ("", ":memory:"):
        return True
    if not (uri and db.startswith("file:")):
        return False
    parts = urllib.parse.urlsplit(db)
    return parts.path == ":memory:" or urllib.parse.parse_qs(parts.query).get("mode") == ["memory"]


def _open(args: tuple[Any, ...], allowed_dir: str) -> str | None:
    path, mode, flags = [*list(args), None, None, 0][:3]
    writes = bool(mode and any(c in str(mode) for c in "wax+")) or bool((flags or 0) & _WRITE_FLAGS)
    if not writes or path is None:
        return None
    if isinstance(path, int):
        return None if path in (1, 2) else "writes to an open file descriptor"
    name = _path(path)
    if name == os.devnull or inside(name, allowed_dir):
        return None
    if "__pycache__" in name:  # an import caching bytecode: refused quietly (importlib ignores OSError)
        raise PermissionError(13, "aiperf trial: bytecode cache not written", name)
    verb = "appends to" if (mode and "a" in str(mode)) or (flags or 0) & os.O_APPEND else "writes to"
    return f"{verb} {name}"


def _path(value: Any) -> str:
    try:
        return os.fsdecode(value)
    except TypeError:
        return str(value)


def inside(path: str, folder: str) -> bool:
    if not folder:
        return False
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder + os.sep)


def _address(addr: Any) -> str:
    if isinstance(addr, tuple) and len(addr) >= 2:
        return f"{addr[0]}:{addr[1]}"
    return _path(addr) if addr is not None else "the network"


def _command(arg: Any) -> str:
    if isinstance(arg, (list, tuple)):
        return " ".join(_path(a) for a in arg)
    return _path(arg) if isinstance(arg, (str, bytes, os.PathLike)) else str(arg)


def _mmap_writes(args: tuple[Any, ...]) -> bool:
    import mmap

    return not (len(args) >= 4 and isinstance(args[2], int) and args[2] in (mmap.ACCESS_READ, mmap.ACCESS_COPY))


def cell_line(frame: Any = None) -> tuple[str, int] | None:
    """(which side, line) of the innermost frame running trial code, from ``frame`` (default: here)."""
    frame = frame if frame is not None else sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if name in TRIAL_FILES:
            return name[len("<aiperf ") : -1], frame.f_lineno
        frame = frame.f_back
    return None


def where(what: str) -> str:
    """``line 3 writes to out.txt`` (or ``a thread started by the cell ...``)."""
    return where_from(sys._getframe(1), what)


def where_from(frame: Any, what: str) -> str:
    """:func:`where`, for the code running in ``frame`` (a thread's, a signal handler's)."""
    found = cell_line(frame)
    if found is None:
        return f"code started by the cell {what}"
    side, line = found
    return f"{'the rewrite' + chr(39) + 's ' if side == 'after' else ''}line {line} {what}"


def refuse(what: str) -> None:
    """Record the first refusal and raise :class:`Blocked`."""
    text = where(what)
    if STATE.blocked is None:
        STATE.blocked = text
    raise Blocked(text)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event not in WATCHED or not STATE.active:
        return
    if STATE.exempt and threading.get_ident() in STATE.exempt:
        return
    what = describe(event, args, STATE.allowed_dir)
    if what is not None:
        refuse(what)


def install_in_child(allowed_dir: str) -> None:
    """Install the hook in a forked, disposable process, inactive until :func:`activate`."""
    global _installed
    STATE.allowed_dir, STATE.exempt, STATE.blocked = os.path.realpath(allowed_dir), frozenset(), None
    STATE.active = False
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True


def activate() -> None:
    """Guard this (forked) process for good, from now on: no trial code has run yet."""
    STATE.blocked = None
    STATE.active = _installed and bool(STATE.allowed_dir)


@contextlib.contextmanager
def guarding(allowed_dir: str) -> Iterator[None]:
    """Guard the calling thread and any thread it starts, in this process, for the block's duration.

    Threads that already existed (the kernel's own) are exempt. The hook stays installed afterwards,
    returning at once while no trial runs.
    """
    global _installed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
    if not getattr(threading.excepthook, "_aiperf_quiet", False):
        threading.excepthook = _quiet(threading.excepthook)
    me = threading.get_ident()
    others = frozenset(t.ident for t in threading.enumerate() if t.ident is not None and t.ident != me)
    STATE.allowed_dir, STATE.exempt, STATE.blocked = os.path.realpath(allowed_dir), others, None
    STATE.active = True
    try:
        yield
    finally:
        STATE.active = False


def _quiet(hook: Any) -> Any:
    """A thread ended by a refusal is not an error to print in the notebook: the Try reports it."""

    def excepthook(args: Any) -> None:
        if not (isinstance(args.exc_type, type) and issubclass(args.exc_type, Blocked)):
            hook(args)

    excepthook._aiperf_quiet = True  # type: ignore[attr-defined]
    return excepthook
