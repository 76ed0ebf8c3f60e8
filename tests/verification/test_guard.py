"""The guard's judgement of audit events, the static I/O pre-check, and the kernel-side fork check."""

from __future__ import annotations

import os
import sys

import pytest

from aiperf_magic.verification import fork_available, planned_runs
from aiperf_magic.verification.guard import WATCHED, describe
from aiperf_magic.verification.landlock import abi_version
from aiperf_magic.verification.precheck import hints, kernel_changing_lines

TMP = "/tmp/aiperf-try-test"


@pytest.mark.parametrize(
    ("event", "args", "said"),
    [
        ("open", ("out.txt", "w", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "writes to out.txt"),
        ("open", ("log.txt", "a", os.O_WRONLY | os.O_APPEND), "appends to log.txt"),
        ("open", ("b.txt", None, os.O_WRONLY | os.O_CREAT), "writes to b.txt"),  # os.open
        ("os.remove", ("gone.txt", -1), "deletes gone.txt"),
        ("os.rename", ("a", "b", -1, -1), "renames a to b"),
        ("os.mkdir", ("d", 511, -1), "creates the folder d"),
        ("os.truncate", ("f", 0), "truncates f"),
        ("shutil.rmtree", ("d", None), "deletes the folder d"),
        ("socket.connect", (None, ("127.0.0.1", 8000)), "connects to 127.0.0.1:8000"),
        ("socket.bind", (None, ("0.0.0.0", 9)), "listens on 0.0.0.0:9"),
        ("subprocess.Popen", ("ls", ["ls", "-l"], None, None), "runs the command ls -l"),
        ("os.system", (b"echo hi",), "runs the shell command echo hi"),
        ("os.fork", (), "starts a process (fork)"),
        ("os.kill", (1, 9), "sends a signal to process 1"),
        ("sqlite3.connect", ("data.db",), "opens the SQLite database data.db"),
    ],
)
def test_refused_events_are_said_in_words(event: str, args: tuple, said: str) -> None:
    assert event in WATCHED
    assert describe(event, args, TMP) == said


@pytest.mark.parametrize(
    ("event", "args"),
    [
        ("open", ("data.csv", "r", os.O_RDONLY)),
        ("open", (f"{TMP}/scratch.bin", "wb", os.O_WRONLY | os.O_CREAT)),  # the trial's own temp folder
        ("open", (os.devnull, "w", os.O_WRONLY)),
        ("os.remove", (f"{TMP}/x", -1)),
        ("sqlite3.connect", (":memory:",)),
        ("sqlite3.connect", ("",)),
        ("os.kill", (os.getpid(), 0)),
        ("mmap.__new__", (-1, 4096, 1, 3)),
    ],
)
def test_reads_private_files_and_memory_databases_are_allowed(event: str, args: tuple) -> None:
    assert describe(event, args, TMP) is None


def test_bytecode_caches_are_refused_quietly() -> None:
    with pytest.raises(PermissionError):
        describe("open", ("/x/__pycache__/m.cpython-311.pyc.123", None, os.O_WRONLY | os.O_CREAT), TMP)


def test_precheck_names_likely_io_with_lines() -> None:
    src = (
        "import pandas as pd\n"
        "df.to_csv('out.csv')\n"
        "with open('log.txt', 'a') as f:\n"
        "    f.write('x')\n"
        "!echo run >> log.txt\n"
        "r = requests.get(url)\n"
        "con.execute('insert into t values (1)')\n"
        "x = open('in.txt').read()\n"
    )
    python = src.replace("!echo run >> log.txt", "get_ipython().system('echo run >> log.txt')")
    found = {h.line: h.what for h in hints(src, python)}
    assert found[2] == "writes a CSV file (out.csv)"
    assert found[3] == "appends to log.txt"
    assert found[4] == "writes to a file"
    assert found[5] == "runs the shell command `echo run >> log.txt`"
    assert found[6].startswith("uses the network")
    assert found[7] == "writes to a database"
    assert 8 not in found and 1 not in found


def test_in_process_refuses_shell_escapes_and_magics_but_not_timing() -> None:
    src = "%time y = f()\n%timeit f()\n!ls\n%cd /tmp\nfiles = !ls\n"
    assert [(h.line, h.what.split()[0]) for h in kernel_changing_lines(src)] == [(3, "runs"), (4, "runs"), (5, "runs")]


def test_planned_runs_is_what_allow_io_announces() -> None:
    assert planned_runs(5) == 6 and planned_runs(0) == 2


def test_fork_is_refused_once_cuda_is_initialised(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeCuda:
        @staticmethod
        def is_initialized() -> bool:
            return True

    fake = type(sys)("torch")
    fake.cuda = FakeCuda  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", fake)
    ok, why = fork_available()
    assert not ok and "CUDA is initialised" in why


def test_landlock_is_detected_or_reported() -> None:
    assert abi_version() >= 0  # 0 where the kernel has none: trials then rely on the audit hook alone
