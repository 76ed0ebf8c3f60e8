"""IPython syntax in trials, in IPython's own shell: ``!cmd`` never runs, magics never change the kernel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aiperf_magic import verify


@pytest.mark.parametrize("isolation", ["auto", "in-process"])
def test_shell_escape_is_refused_and_named(ip, tmp_path: Path, isolation: str) -> None:
    out = tmp_path / "shell.txt"
    cell = f"!echo run >> {out}\ny = 1\n"
    c = verify(cell, cell, ip.user_ns, repeat=1, isolation=isolation)
    assert not out.exists()
    assert c.blocked == f"line 1 runs the shell command `echo run >> {out}`"


def test_magics_run_only_in_forked_copies(ip) -> None:
    cell = "%env AIPERF_TRIAL_VAR=1\nhere = 1\n"
    forked = verify(cell, cell, ip.user_ns, repeat=1)
    assert forked.equal and forked.blocked is None and "AIPERF_TRIAL_VAR" not in os.environ
    in_process = verify(cell, cell, ip.user_ns, repeat=1, isolation="in-process")
    assert in_process.blocked == "line 1 runs the magic %env" and "AIPERF_TRIAL_VAR" not in os.environ
    assert any("would change the kernel itself" in n for n in in_process.notes)


def test_a_magic_that_writes_ipythons_own_files_is_refused(ip, tmp_path: Path) -> None:
    cwd = os.getcwd()
    cell = f"%cd {tmp_path}\nhere = 1\n"
    c = verify(cell, cell, ip.user_ns, repeat=1)
    assert os.getcwd() == cwd
    assert c.blocked is None or c.blocked.startswith("line 1 ")  # %cd records the folder in IPython's store


def test_timing_magics_are_tried_in_process(ip) -> None:
    c = verify("%time y = 2 ** 10\n", "%time y = 1024\n", ip.user_ns, repeat=1, isolation="in-process")
    assert c.equal and c.blocked is None
