"""Before anything runs: does the cell hand work or bytes to something outside the trial?

A copy of the kernel cannot use what lives outside it: a Dask or Ray cluster, a process or thread
pool made in an earlier cell (its workers are other processes, or threads a fork does not copy), a
connection to a database or server, a serial port, a pipe to another process, a file opened for
writing. A trial would either repeat the work for real (in this kernel) or wait forever (in a copy).
So the cell is refused at once, with the line and the reason, unless the user allows I/O. Files,
devices and pipes opened earlier are refused up front only for in-process trials: a forked copy
holds them read-only, so its reads work and the operating system refuses its writes.

Found from the objects themselves, not from names: the cell's names and everything the user
functions it calls can reach (:class:`.reach.Reach`), then a bounded walk into those objects'
attributes and containers, asking each what it is: a cluster client, a pool or executor, a
multiprocessing queue, pipe or manager proxy, or an object whose ``fileno()`` is a socket, a pipe, a
device or a file opened for writing. The kernel's own objects (its streams, sockets, widgets) are
never walked into.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import inspect
import os
import stat
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from .reach import Reach
from .sandbox import ATOMIC, SHARED

KERNEL_ROOTS = frozenset(
    {"IPython", "ipykernel", "zmq", "tornado", "jupyter_client", "jupyter_core", "traitlets", "comm"}
    | {"ipywidgets", "aiperf_magic", "debugpy", "asyncio"}
)
DATA_ROOTS = frozenset({"numpy", "pandas", "torch", "scipy", "pyarrow", "polars"})  # data: nothing to find inside
MAX_OBJECTS, MAX_DEPTH, MAX_ITEMS, MAX_SECONDS = 20_000, 5, 64, 0.5
_HARMLESS_DEVICES = {(1, 3), (1, 5), (1, 7), (1, 8), (1, 9)}  # null, zero, full, random, urandom
# what a forked copy holds read-only, or cannot act on: refused up front only in-process
OS_GUARDED = frozenset({"file", "device", "pipe", "memory", "native"})
CLUSTER = "sends work to a {} cluster; a copy of the kernel cannot reach it without repeating the work"


@dataclass
class Outside:
    """Something outside the trial the cell reaches, and the line of the cell that reaches it."""

    line: int
    what: str  # "sends work to a Dask cluster; ..."
    kind: str  # "cluster", "pool", "process", "connection", "device", "pipe", "file", "thread"


def find(namespace: dict[str, Any], python: str, in_process: bool = False) -> list[Outside]:
    """What the cell's lines reach outside a trial, first line first (``python``: the runnable cell)."""
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return []
    walk = _Objects(in_process)
    out: list[Outside] = []
    if in_process:
        out += _native_imports(tree)
    for line, name in _names_by_line(tree):
        if name not in namespace or time.monotonic() > walk.deadline:
            continue
        found = walk.name(namespace, name)
        if found is not None and not in_process and found[0] in OS_GUARDED:
            continue  # a forked copy reads it and cannot write through it: the operating system refuses
        if found is not None and all(o.what != found[1] for o in out):
            out.append(Outside(line, found[1], found[0]))
    return out


def first(namespace: dict[str, Any], before: str, after: str, in_process: bool) -> str | None:
    """``line 3 sends work to a Dask cluster; ...`` for the first such line of either version, or None."""
    for side, python in (("", before), ("the rewrite's ", after)):
        found = find(namespace, python, in_process)
        if found:
            return f"{side}line {found[0].line} {found[0].what}"
    return None


def _native_imports(tree: ast.AST) -> list[Outside]:
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        if any(n.split(".")[0] == "ctypes" for n in names):
            what = "calls native code through ctypes, which a trial in this kernel cannot stop"
            return [Outside(node.lineno, what, "native")]
    return []


def _names_by_line(tree: ast.AST) -> list[tuple[int, str]]:
    seen: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            seen[node.id] = min(seen.get(node.id, node.lineno), node.lineno)
    return sorted((line, name) for name, line in seen.items())


class _Values(Reach):
    """Collects the values a name leads to through the user functions it reaches."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[Any] = []

    def found_global(self, globals_: dict[str, Any], name: str, top: bool) -> None:
        self.values.append(globals_[name])

    def found_cell(self, cell: Any, value: Any) -> None:
        self.values.append(value)


class _Objects:
    def __init__(self, in_process: bool) -> None:
        self.in_process = in_process
        self.deadline = time.monotonic() + MAX_SECONDS
        self.count = 0
        self.cache: dict[int, tuple[str, str] | None] = {}
        self.kernel_streams = {id(s) for s in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__) if s}
        self.dask = _dask_client_exists()
        self.ray = _ray_initialised()
        self.user_threads = _user_threads_alive()

    def name(self, namespace: dict[str, Any], name: str) -> tuple[str, str] | None:
        value = namespace[name]
        values = _Values()
        values.follow(value)
        for v in [value, *values.values]:
            found = self.inspect(v, 0)
            if found is not None:
                return found
        return None

    def inspect(self, value: Any, depth: int) -> tuple[str, str] | None:
        key = id(value)
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = None  # cycles end here
        self.count += 1
        if self.count > MAX_OBJECTS or time.monotonic() > self.deadline:
            return None
        found = self._what(value)
        if found is None and depth < MAX_DEPTH:
            for child in _children(value):
                found = self.inspect(child, depth + 1)
                if found is not None:
                    break
        self.cache[key] = found
        return found

    def _what(self, v: Any) -> tuple[str, str] | None:
        if isinstance(v, ATOMIC) or id(v) in self.kernel_streams:
            return None
        root = _root(v)
        if root in KERNEL_ROOTS:
            return None
        name = type(v).__name__
        if (self.dask and root in ("dask", "distributed")) or (root == "distributed" and name == "Client"):
            return "cluster", CLUSTER.format("Dask")
        if self.ray and root == "ray":
            return "cluster", CLUSTER.format("Ray")
        pool = _pool(v, self.in_process)
        if pool is not None:
            return "pool", (
                f"hands work to a {pool} made before the Try: its workers are outside the trial, so the work "
                "would run for real, or wait forever in a copy of the kernel"
            )
        if self.user_threads and name in ("Queue", "SimpleQueue", "LifoQueue", "PriorityQueue") and root == "queue":
            return "thread", (
                "hands work to a queue that threads started before the Try consume: those threads do not exist "
                "in a copy of the kernel, and in this kernel they would do the work for real"
            )
        if self.in_process and root == "ctypes":
            return "native", "calls native code through ctypes, which a trial in this kernel cannot stop"
        memory = _shared_memory(v)
        if memory is not None:
            return "memory", f"writes to {memory} made before the Try"
        if isinstance(v, SHARED):
            return None
        return self._descriptor(v, name)

    def _descriptor(self, v: Any, name: str) -> tuple[str, str] | None:
        if inspect.getattr_static(type(v), "fileno", None) is None:
            return None
        try:
            fd = v.fileno()
        except Exception:  # closed, or not backed by a descriptor
            return None
        if not isinstance(fd, int) or fd <= 2:
            return None
        return _descriptor_kind(fd, name)


def _descriptor_kind(fd: int, name: str) -> tuple[str, str] | None:
    """What a descriptor reaches: a kind, and what the cell would do through it, in words.

    A descriptor opened only for writing gets the kind ``writer``: all a cell can do with it is
    write, so it is refused up front wherever the trial runs. One also open for reading (a pipe's
    read end, a pty, a file opened ``r+``) is refused up front only in-process: a forked copy reads
    it and the operating system refuses its writes.
    """
    try:
        info = os.fstat(fd)
        access = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except OSError:
        return None
    path = ""
    with contextlib.suppress(OSError):
        path = os.readlink(f"/proc/self/fd/{fd}")
    if stat.S_ISSOCK(info.st_mode):
        return "connection", f"talks to a server through a connection opened before the Try (a {name})"
    if stat.S_ISFIFO(info.st_mode):
        kind = "writer" if access == os.O_WRONLY else "pipe"
        return kind, f"talks to another process through a pipe opened before the Try (a {name})"
    if stat.S_ISCHR(info.st_mode) and (os.major(info.st_rdev), os.minor(info.st_rdev)) not in _HARMLESS_DEVICES:
        return (
            "writer" if access == os.O_WRONLY else "device",
            f"writes to the device {path or name} opened before the Try",
        )
    if stat.S_ISREG(info.st_mode) and access != os.O_RDONLY:
        kind = "writer" if access == os.O_WRONLY else "file"
        return kind, f"writes to {path or 'a file'}, opened for writing before the Try"
    return None


def _root(v: Any) -> str:
    module = getattr(type(v), "__module__", None) or ""
    if isinstance(v, type(sys)):
        module = v.__name__
    return module.split(".")[0]


def _shared_memory(v: Any) -> str | None:
    """Memory ``v`` shares with a file or another process, writable: an mmap, a memmap, SharedMemory."""
    mmap = sys.modules.get("mmap")
    if mmap is not None and isinstance(v, mmap.mmap):
        return "memory mapped from a file"
    np = sys.modules.get("numpy")
    if np is not None and isinstance(v, np.memmap) and getattr(v, "mode", "r") in ("r+", "w+"):
        return "a writable memmap"
    shm = sys.modules.get("multiprocessing.shared_memory")
    if shm is not None and isinstance(v, shm.SharedMemory):
        return f"the shared memory block {v.name}"
    return None


def _pool(v: Any, in_process: bool) -> str | None:
    """The kind of pool ``v`` is, when its workers are outside a trial.

    A thread pool's threads do not exist in a forked copy, which starts fresh ones as needed
    (:func:`.isolate.repair_thread_pools`): only an in-process trial would share them.
    """
    futures = sys.modules.get("concurrent.futures")
    if futures is not None and isinstance(v, futures.Executor):
        threads = isinstance(v, futures.ThreadPoolExecutor)
        return type(v).__name__ if in_process or not threads else None
    for module, names in (
        ("multiprocessing.pool", ("Pool",)),
        ("multiprocessing.managers", ("BaseManager", "BaseProxy")),
        ("multiprocessing.queues", ("Queue", "SimpleQueue")),
        ("multiprocessing.process", ("BaseProcess",)),
    ):
        mod = sys.modules.get(module)
        for cls in (getattr(mod, n, None) for n in names) if mod is not None else ():
            if isinstance(cls, type) and isinstance(v, cls):
                return {"BaseProxy": "multiprocessing manager", "BaseManager": "multiprocessing manager"}.get(
                    cls.__name__, f"multiprocessing {type(v).__name__}"
                )
    return None


def _children(v: Any) -> list[Any]:
    if isinstance(v, (*ATOMIC, *SHARED)) or _root(v) in DATA_ROOTS | KERNEL_ROOTS:
        return []
    if isinstance(v, dict):
        return list(v.values())[:MAX_ITEMS]
    if isinstance(v, (list, tuple, set, frozenset)):
        return list(v)[:MAX_ITEMS]
    try:
        state = object.__getattribute__(v, "__dict__")  # never a proxy's __getattr__
    except (AttributeError, TypeError):
        return []
    return list(state.values())[:MAX_ITEMS] if isinstance(state, dict) else []


def _dask_client_exists() -> bool:
    client = sys.modules.get("distributed.client")
    if client is None:
        return False
    with contextlib.suppress(Exception):
        return client.default_client() is not None
    return False


def _ray_initialised() -> bool:
    ray = sys.modules.get("ray")
    with contextlib.suppress(Exception):
        return bool(ray is not None and ray.is_initialized())
    return False


def _user_threads_alive() -> bool:
    for t in threading.enumerate():
        if t is threading.main_thread() or t is threading.current_thread() or not t.is_alive():
            continue
        target = getattr(t, "_target", None)
        module = getattr(target, "__module__", None) or type(t).__module__
        if (module or "").split(".")[0] not in KERNEL_ROOTS:
            return True
    return False
