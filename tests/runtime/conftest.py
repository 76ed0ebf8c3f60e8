"""A real IPython shell with the extension loaded, and a helper that measures one cell through it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from aiperf_magic.report import Report
from aiperf_magic.sampling import live_threads


@pytest.fixture(scope="module")
def aiperf_shell() -> Iterator[Any]:
    from IPython.testing import globalipapp

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()  # None when already started
    shell.run_cell("%load_ext aiperf_magic")
    yield shell
    shell.run_cell("%unload_ext aiperf_magic")


@pytest.fixture
def measure(aiperf_shell: Any) -> Callable[..., Report]:
    """Run ``body`` under ``%%aiperf`` in the real shell and return its Report."""

    def run(body: str, options: str = "") -> Report:
        aiperf_shell.user_ns.pop("_aiperf_r", None)
        result = aiperf_shell.run_cell(f"%%aiperf --var _aiperf_r --text --no-gpu {options}\n{body}")
        report = aiperf_shell.user_ns.get("_aiperf_r")
        assert isinstance(report, Report), result
        return report

    return run


@pytest.fixture(autouse=True)
def no_sampler_left_behind() -> Iterator[None]:
    yield
    assert live_threads() == []
