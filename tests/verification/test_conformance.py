"""The conformance matrix of Try's sandbox: every effect channel, reached every way, in every isolation.

Each case sets up a piece of the world (a file, a server, a pty standing in for a serial port, a
database, a victim process, shared memory, a queue), then Tries a cell that would change it, and
asserts that the world is unchanged afterwards and that the Try's text names the refusal. The ways:
the standard library in the cell, native code through ctypes (what libpq or a driver does), an
object made in an earlier cell, a helper function defined earlier, a thread or pool made earlier,
a thread or a process the cell starts. The isolations:

- ``fork``: forked copies under Landlock and the syscall filter, refusals reported as they happen;
- ``no-landlock``: as on kernels without Landlock (the filter then refuses writes by path too);
- ``no-notify``: the filter answers EPERM by itself (no listener): the world holds, and what native
  code was refused is reported only through the error it got;
- ``in-process``: trials in the kernel itself, as when CUDA is initialised: what the audit hook and
  the up-front check of what the cell reaches can refuse;
- ``audit-only``: as on macOS or old kernels: no Landlock, no filter. Native code is then not covered,
  and the Comparison must say so.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import shared_memory
from pathlib import Path
from typing import Any

import pytest

from aiperf_magic import verify
from aiperf_magic.render.comparison import render_comparison_text
from aiperf_magic.render.panel.outcome import outcome
from aiperf_magic.verification import landlock, notify, seccomp
from tests.verification.world import (
    Counter,
    World,
    fifo,
    listing,
    namespace,
    pty_pair,
    sqlite_file,
    sqlite_rows,
    victim,
)

Probe = Callable[[], Any]


@dataclass
class Case:
    name: str
    build: Callable[[World], tuple[str, Probe]]
    native: bool = False  # reached through native code: not covered without a syscall filter, nor in-process
    silent: bool = False  # the native code ignores the error it gets
    raw_fd: bool = False  # through a descriptor held as a plain number: not covered in-process


CASES: list[Case] = []


def case(name: str, native: bool = False, silent: bool = False, raw_fd: bool = False) -> Callable:
    def register(build: Callable[[World], tuple[str, Probe]]) -> Callable:
        CASES.append(Case(name, build, native, silent, raw_fd))
        return build

    return register


def _define(w: World, source: str) -> None:
    exec(source, w.ns)  # a function the notebook defined in an earlier cell


# --- regular files and folders -----------------------------------------------------------------


def _files(w: World) -> Probe:
    (w.root / "data.txt").write_text("kept\n")
    return lambda: listing(w.root)


@case("file: open() in the cell")
def _(w: World) -> tuple[str, Probe]:
    return f"with open({str(w.root / 'out.txt')!r}, 'w') as f:\n    f.write('x')\nn = 1\n", _files(w)


@case("file: os.open")
def _(w: World) -> tuple[str, Probe]:
    path = str(w.root / "out.bin")
    return f"import os\nfd = os.open({path!r}, os.O_WRONLY | os.O_CREAT)\nos.write(fd, b'x')\n", _files(w)


@case("file: pathlib")
def _(w: World) -> tuple[str, Probe]:
    return f"import pathlib\npathlib.Path({str(w.root / 'p.txt')!r}).write_text('x')\n", _files(w)


@case("file: shutil.copy")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    return f"import shutil\nshutil.copy({str(w.root / 'data.txt')!r}, {str(w.root / 'copy.txt')!r})\n", probe


@case("file: np.save")
def _(w: World) -> tuple[str, Probe]:
    return f"import numpy as np\nnp.save({str(w.root / 'a.npy')!r}, np.arange(3))\n", _files(w)


@case("file: DataFrame.to_csv")
def _(w: World) -> tuple[str, Probe]:
    return f"import pandas as pd\npd.DataFrame({{'a': [1]}}).to_csv({str(w.root / 'a.csv')!r})\n", _files(w)


@case("file: torch.save (native writer)", native=True)
def _(w: World) -> tuple[str, Probe]:
    pytest.importorskip("torch")
    return f"import torch\ntorch.save(torch.ones(2), {str(w.root / 't.pt')!r})\n", _files(w)


@case("file: pickle.dump to a handle opened earlier")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    fh = open(w.root / "data.txt", "ab")  # noqa: SIM115 - the notebook keeps it open
    w.closers.append(fh.close)
    w.ns["fh"] = fh
    return "import pickle\npickle.dump([1, 2], fh)\nfh.flush()\n", probe


@case("file: mmap")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    path = str(w.root / "data.txt")
    return f"import mmap, os\nm = mmap.mmap(os.open({path!r}, os.O_RDWR), 0)\nm[0:1] = b'Z'\n", probe


@case("file: rename")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    return f"import os\nos.rename({str(w.root / 'data.txt')!r}, {str(w.root / 'moved.txt')!r})\n", probe


@case("file: unlink")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    return f"import os\nos.remove({str(w.root / 'data.txt')!r})\n", probe


@case("file: chmod")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    return f"import os\nos.chmod({str(w.root / 'data.txt')!r}, 0o600)\n", probe


@case("file: truncate")
def _(w: World) -> tuple[str, Probe]:
    probe = _files(w)
    return f"import os\nos.truncate({str(w.root / 'data.txt')!r}, 0)\n", probe


@case("file: a C library writes it (ctypes)", native=True)
def _(w: World) -> tuple[str, Probe]:
    return f"c_save({str(w.root / 'c.bin')!r}, b'x')\nn = 1\n", _files(w)


@case("file: a helper function", native=False)
def _(w: World) -> tuple[str, Probe]:
    _define(w, f"def save(text):\n    with open({str(w.root / 'h.txt')!r}, 'a') as f:\n        f.write(text)\n")
    return "save('x')\nn = 1\n", _files(w)


@case("file: a thread the cell starts")
def _(w: World) -> tuple[str, Probe]:
    path = str(w.root / "t.txt")
    cell = f"import threading\nt = threading.Thread(target=lambda: open({path!r}, 'w').write('x'))\n"
    return cell + "t.start()\nt.join()\n", _files(w)


@case("file: a thread pool made earlier")
def _(w: World) -> tuple[str, Probe]:
    _define(w, f"def save():\n    with open({str(w.root / 'pool.txt')!r}, 'w') as f:\n        f.write('x')\n")
    pool = ThreadPoolExecutor(2)
    pool.submit(lambda: None).result()  # its threads exist
    w.closers.append(pool.shutdown)
    w.ns["pool"] = pool
    return "pool.submit(save).result()\nn = 1\n", _files(w)


@case("file: a process the cell starts")
def _(w: World) -> tuple[str, Probe]:
    _define(w, f"def save():\n    open({str(w.root / 'proc.txt')!r}, 'w').write('x')\n")
    return "import multiprocessing\np = multiprocessing.Process(target=save)\np.start()\np.join()\n", _files(w)


@case("folder: mkdir and rmdir")
def _(w: World) -> tuple[str, Probe]:
    (w.root / "old").mkdir()
    probe = _files(w)
    return f"import os\nos.mkdir({str(w.root / 'new')!r})\nos.rmdir({str(w.root / 'old')!r})\n", probe


# --- FIFOs, ptys, character devices ------------------------------------------------------------


@case("fifo: by path")
def _(w: World) -> tuple[str, Probe]:
    path, reader, received = fifo(w.root)
    w.closers.append(lambda: os.close(reader))
    return f"with open({path!r}, 'w') as f:\n    f.write('x')\n", received


@case("fifo: a descriptor opened earlier", raw_fd=True)
def _(w: World) -> tuple[str, Probe]:
    path, reader, received = fifo(w.root)
    writer = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    w.closers += [lambda: os.close(reader), lambda: os.close(writer)]
    w.ns["pipe_fd"] = writer
    return "import os\nos.write(pipe_fd, b'x')\n", received


def _port(w: World) -> Probe:
    master, slave, received = pty_pair()
    w.closers += [lambda: os.close(master), lambda: os.close(slave)]
    w.ns["port_fd"] = slave
    return received


@case("pty: a serial port object made earlier")
def _(w: World) -> tuple[str, Probe]:
    received = _port(w)
    _define(
        w,
        "import os\nclass Instrument:  # as pyserial's Serial: a descriptor and its fileno()\n"
        "    def __init__(self, fd):\n        self.fd = fd\n    def fileno(self):\n        return self.fd\n"
        "    def ask(self, cmd):\n        os.write(self.fd, cmd + b'\\n')\n"
        "scope = Instrument(port_fd)\n",
    )
    return "scope.ask(b'MEAS:VOLT?')\nreading = 1.0\n", received


@case("pty: by path")
def _(w: World) -> tuple[str, Probe]:
    received = _port(w)
    return f"with open({os.ttyname(w.ns['port_fd'])!r}, 'w') as f:\n    f.write('x')\n", received


@case("pty: a driver writes the descriptor (ctypes, error ignored)", native=True, silent=True)
def _(w: World) -> tuple[str, Probe]:
    received = _port(w)
    return "c_write(port_fd, b'MEAS?')\nreading = 1.0\n", received


# --- sockets -------------------------------------------------------------------------------------


def _server(w: World, family: int, kind: int, address: Any) -> Counter:
    server = Counter(family, kind, address)
    w.closers.append(server.close)
    return server


@case("socket: TCP connect")
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 0))
    return f"import socket\nc = socket.create_connection({s.address!r})\nc.sendall(b'x')\n", s.seen


@case("socket: UDP datagram")
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0))
    cell = f"import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', {s.address!r})\n"
    return cell, s.seen


@case("socket: Unix path")
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_UNIX, socket.SOCK_STREAM, str(w.root / "db.sock"))
    cell = f"import socket\nc = socket.socket(socket.AF_UNIX)\nc.connect({s.address!r})\nc.sendall(b'x')\n"
    return cell, s.seen


@case("socket: abstract Unix")
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_UNIX, socket.SOCK_STREAM, f"\0aiperf-test-{os.getpid()}-{time.monotonic_ns()}")
    cell = f"import socket\nc = socket.socket(socket.AF_UNIX)\nc.connect({s.address!r})\nc.sendall(b'x')\n"
    return cell, s.seen


@case("socket: a TCP connection made earlier")
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 0))
    conn = socket.create_connection(s.address)
    w.closers.append(conn.close)
    w.ns["conn"] = conn
    return "conn.sendall(b'SELECT 1')\nrows = 1\n", s.seen


@case("socket: a local database reached by native code (ctypes)", native=True)
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_UNIX, socket.SOCK_STREAM, str(w.root / ".s.PGSQL.5432"))
    return f"c_connect({s.address!r}, b'SELECT 1')\nrows = 1\n", s.seen


@case("socket: an abstract socket reached by native code (ctypes)", native=True)
def _(w: World) -> tuple[str, Probe]:
    name = f"aiperf-native-{os.getpid()}-{time.monotonic_ns()}"
    s = _server(w, socket.AF_UNIX, socket.SOCK_STREAM, "\0" + name)
    return f"c_connect({name!r}, b'x', abstract=True)\nrows = 1\n", s.seen


@case("socket: metrics sent by native code (ctypes, error ignored)", native=True, silent=True)
def _(w: World) -> tuple[str, Probe]:
    s = _server(w, socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0))
    return f"c_sendto({s.address[1]}, b'loss:1|g')\nn = 1\n", s.seen


# --- SQLite ----------------------------------------------------------------------------------------


def _db(w: World, name: str) -> tuple[str, Probe]:
    path = str(w.root / name)
    sqlite_file(path)
    return path, lambda: (sqlite_rows(path), listing(w.root))


@case("sqlite: a database file")
def _(w: World) -> tuple[str, Probe]:
    path, probe = _db(w, "runs.db")
    cell = f"import sqlite3\ncon = sqlite3.connect({path!r})\ncon.execute('insert into t values (1)')\n"
    return cell + "con.commit()\n", probe


@case("sqlite: a URI whose path says memory")
def _(w: World) -> tuple[str, Probe]:
    path, probe = _db(w, "memory_runs.db")
    cell = f"import sqlite3\ncon = sqlite3.connect('file:{path}', uri=True)\ncon.execute('insert into t values (1)')\n"
    return cell + "con.commit()\n", probe


@case("sqlite: ATTACH from an in-memory connection")
def _(w: World) -> tuple[str, Probe]:
    path, probe = _db(w, "real.db")
    cell = (
        f"import sqlite3\ncon = sqlite3.connect(':memory:')\ncon.execute(\"ATTACH DATABASE '{path}' AS r\")\n"
        "con.execute('insert into r.t values (1)')\ncon.commit()\n"
    )
    return cell, probe


@case("sqlite: a connection opened earlier, used by a helper")
def _(w: World) -> tuple[str, Probe]:
    path, probe = _db(w, "app.db")
    import sqlite3

    con = sqlite3.connect(path)
    w.closers.append(con.close)
    w.ns["con"] = con
    _define(w, "def record(x):\n    con.execute('insert into t values (?)', (x,))\n    con.commit()\n")
    return "record(1)\nn = 1\n", probe


# --- commands, signals -------------------------------------------------------------------------


def _marker(w: World) -> tuple[str, Probe]:
    return str(w.root / "ran"), _files(w)


@case("command: subprocess")
def _(w: World) -> tuple[str, Probe]:
    marker, probe = _marker(w)
    return f"import subprocess\nsubprocess.run(['touch', {marker!r}])\n", probe


@case("command: os.system")
def _(w: World) -> tuple[str, Probe]:
    marker, probe = _marker(w)
    return f"import os\nos.system('touch {marker}')\n", probe


@case("command: os.posix_spawn")
def _(w: World) -> tuple[str, Probe]:
    marker, probe = _marker(w)
    return f"import os\nos.posix_spawn('/usr/bin/touch', ['touch', {marker!r}], {{}})\n", probe


@case("command: asyncio")
def _(w: World) -> tuple[str, Probe]:
    marker, probe = _marker(w)
    cell = (
        "import asyncio\nasync def main():\n"
        f"    p = await asyncio.create_subprocess_exec('touch', {marker!r})\n    await p.wait()\nasyncio.run(main())\n"
    )
    return cell, probe


@case("command: system() from native code (ctypes, error ignored)", native=True, silent=True)
def _(w: World) -> tuple[str, Probe]:
    marker, probe = _marker(w)
    return f"c_system('touch {marker}')\nn = 1\n", probe


def _victim(w: World) -> int:
    ctx = victim()
    proc = ctx.__enter__()
    w.closers.append(lambda: ctx.__exit__(None, None, None))
    return proc.pid


def _alive(pid: int) -> Probe:
    def probe() -> bool:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"

    return probe


@case("signal: os.kill of another process")
def _(w: World) -> tuple[str, Probe]:
    pid = _victim(w)
    return f"import os, signal\nos.kill({pid}, signal.SIGTERM)\n", _alive(pid)


@case("signal: kill() from native code (ctypes, error ignored)", native=True, silent=True)
def _(w: World) -> tuple[str, Probe]:
    pid = _victim(w)
    return f"c_kill({pid})\nn = 1\n", _alive(pid)


# --- shared memory, multiprocessing, logging ---------------------------------------------------


def _block(w: World) -> shared_memory.SharedMemory:
    block = shared_memory.SharedMemory(create=True, size=64)
    block.buf[:4] = b"kept"
    w.closers += [block.unlink, block.close]
    return block


@case("shared memory: a block made earlier")
def _(w: World) -> tuple[str, Probe]:
    block = _block(w)
    w.ns["block"] = block
    return "block.buf[0] = 0\nn = 1\n", lambda: bytes(block.buf[:4])


@case("shared memory: the same block opened by name")
def _(w: World) -> tuple[str, Probe]:
    block = _block(w)
    return (
        f"from multiprocessing import shared_memory\nb = shared_memory.SharedMemory({block.name!r})\nb.buf[0] = 0\n",
        lambda: bytes(block.buf[:4]),
    )


@case("shared memory: /dev/shm written by native code (ctypes)", native=True)
def _(w: World) -> tuple[str, Probe]:
    block = _block(w)
    return f"c_save('/dev/shm/{block.name}', b'gone')\nn = 1\n", lambda: bytes(block.buf[:4])


@case("multiprocessing: a queue made earlier")
def _(w: World) -> tuple[str, Probe]:
    q: Any = multiprocessing.Queue()
    w.closers.append(q.close)
    w.ns["q"] = q
    return "q.put('job')\nn = 1\n", q.qsize


@case("multiprocessing: a manager's dict made earlier")
def _(w: World) -> tuple[str, Probe]:
    manager = multiprocessing.Manager()
    shared = manager.dict()
    w.closers.append(manager.shutdown)
    w.ns["shared"] = shared
    return "shared['k'] = 1\nn = 1\n", lambda: dict(shared)


@case("logging: a file handler opened earlier")
def _(w: World) -> tuple[str, Probe]:
    import logging

    log = logging.getLogger(f"aiperf-test-{time.monotonic_ns()}")
    handler = logging.FileHandler(w.root / "app.log")
    log.addHandler(handler)
    log.propagate = False
    w.closers.append(handler.close)
    _define(w, "def step(i):\n    log.warning('step %d', i)\n    return i\n")
    w.ns["log"] = log
    probe = _files(w)
    return "total = sum(step(i) for i in range(3))\n", probe


# --- the matrix ----------------------------------------------------------------------------------

MODES = ["fork", "no-landlock", "no-notify", "in-process", "audit-only"]


@pytest.fixture
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    name = request.param
    if name in ("no-landlock", "audit-only"):
        monkeypatch.setattr(landlock, "restrict", lambda folder: "Landlock is switched off for this test")
    if name == "no-notify":
        monkeypatch.setattr(notify, "available", lambda pid, fd: False)
    if name == "audit-only":
        monkeypatch.setattr(seccomp, "machine", lambda: None)
    yield name


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(root=tmp_path, ns=namespace())
    yield w
    w.close()


@pytest.mark.parametrize("mode", MODES, indirect=True)
@pytest.mark.parametrize("item", CASES, ids=[c.name for c in CASES])
def test_the_world_is_unchanged_and_the_refusal_is_named(item: Case, mode: str, world: World) -> None:
    cell, probe = item.build(world)
    before = probe()
    started = time.monotonic()
    c = verify(cell, cell, world.ns, repeat=1, isolation="in-process" if mode == "in-process" else "auto")
    took = time.monotonic() - started
    text = render_comparison_text(c)
    uncovered = " ".join(c.uncovered)
    below_python = item.native or (item.raw_fd and mode == "in-process")
    if mode in ("audit-only", "in-process") and below_python and not c.blocked:
        # nothing stopped it: the Comparison must say that this is not covered here
        assert "native code" in uncovered or (item.raw_fd and "plain numbers" in uncovered), c
        return
    assert probe() == before, f"{item.name} changed the world in mode {mode}: {text}"
    if mode == "no-notify" and item.silent:  # held, but only the error the code ignored knew why
        assert c.blocked or "not reported" in uncovered, c
        return
    assert c.blocked, f"{item.name} in mode {mode}: the refusal is not named: {text}"
    assert f"Not tried: {c.blocked}." in text and "--allow-io" in text
    assert not c.better and took < 30


def test_the_matrix_covers_every_channel_and_way() -> None:
    names = " ".join(c.name for c in CASES)
    for channel in ("file:", "folder:", "fifo:", "pty:", "socket:", "sqlite:", "command:", "signal:", "shared memory:"):
        assert channel in names
    for way in ("ctypes", "earlier", "helper", "thread the cell starts", "thread pool made earlier", "process"):
        assert way in names, way


PURE = (
    "import numpy as np\nimport pandas as pd\n"
    "frame = pd.DataFrame({'a': np.arange(3000, dtype='float64'), 'b': np.linspace(0, 1, 3000)})\n"
)


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_pure_cell_still_tries_equal_and_faster(mode: str) -> None:
    ns = namespace()
    exec(PURE, ns)
    loop = "out = []\nfor i, row in frame.iterrows():\n    out.append(row['a'] * 2 + row['b'])\nframe['c'] = out\n"
    vector = "frame['c'] = frame['a'] * 2 + frame['b']\nout = list(frame['c'].to_numpy())\n"
    c = verify(loop, vector, ns, repeat=3, isolation="in-process" if mode == "in-process" else "auto")
    assert c.equal and c.better and c.blocked is None and c.error is None, render_comparison_text(c)
    assert ("seccomp" in c.sandbox) == (mode in ("fork", "no-landlock", "no-notify"))
    partial = mode in ("in-process", "audit-only", "no-notify")  # no-notify: what was refused goes unsaid
    notice = " ".join(outcome(c)["notice"])
    assert ("native code" in notice) == partial and ("native code" in render_comparison_text(c)) == partial


def test_a_try_that_compared_nothing_is_marked_so_not_different() -> None:
    c = verify("import time\ntime.sleep(0.001)\n", "import time\ntime.sleep(0)\n", namespace(), repeat=1)
    view = outcome(c)
    assert not c.equal and c.difference is None and view["mark"] == "✗ nothing compared", view
    assert "Results differ" not in render_comparison_text(c)


def test_rows_unbound_from_one_tensor_travel_as_themselves() -> None:
    torch = pytest.importorskip("torch")
    rows = list(torch.randn(10_000, 1, 8).unbind(0))  # views of one storage: pickled naively, 3 GB
    before = "feats = torch.empty(0, 8)\nfor row in rows:\n    feats = torch.cat([feats, row], dim=0)\n"
    after = "feats = torch.cat([torch.empty(0, 8), *rows], dim=0)\n"
    started = time.monotonic()
    c = verify(before, after, namespace(torch=torch, rows=rows), repeat=1)
    assert c.equal and c.error is None and not c.timed_out, render_comparison_text(c)
    assert time.monotonic() - started < 20
