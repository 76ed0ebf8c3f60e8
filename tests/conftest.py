"""Shared fixtures: a real IPython shell with the extension, and a guard against leaked threads."""

from __future__ import annotations

import time

import pytest

from aiperf_magic.measure.sampler import live_threads


@pytest.fixture(autouse=True)
def no_aiperf_thread_left():
    yield
    deadline = time.monotonic() + 2.0
    while live_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    leaked = live_threads()
    assert not leaked, f"aiperf threads left running: {leaked}"


@pytest.fixture
def ip():
    """IPython's own test shell with aiperf loaded; unloaded and namespace cleaned afterwards."""
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    shell.run_line_magic("load_ext", "aiperf_magic")
    before = set(shell.user_ns)
    try:
        yield shell
    finally:
        shell.run_line_magic("unload_ext", "aiperf_magic")
        for name in set(shell.user_ns) - before:
            shell.user_ns.pop(name, None)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files (text snapshots, codemod outputs) from the current output")


@pytest.fixture
def update_goldens(request) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if gpu_items and not _cuda_available():
        skip = pytest.mark.skip(reason="needs a CUDA GPU with torch")
        for item in gpu_items:
            item.add_marker(skip)


@pytest.fixture
def rule_statuses(monkeypatch):
    """Give rules a status for one test, whatever the corpus measured: ``rule_statuses(AIP301="preview")``
    ("default", "preview" or "runtime only"), through the held-out numbers the status is read from."""
    from aiperf_magic.rules import precision
    from aiperf_magic.rules.registry import all_rules

    numbers = {
        "default": precision.Measured(findings=20, tp=10, fp=0, debatable=3),
        "preview": precision.Measured(findings=20, tp=6, fp=4, debatable=3),
        "runtime only": precision.Measured(findings=20, tp=1, fp=9, debatable=3),
    }

    def put(**codes: str) -> None:
        for code, status in codes.items():
            monkeypatch.setitem(precision.MEASURED, code, numbers[status])
            assert all_rules()[code].status == status

    return put
