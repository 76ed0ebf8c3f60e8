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
