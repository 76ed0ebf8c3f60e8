"""``measure``: run one cell under ``%%aiperf`` in the real IPython shell (``ip``) and return its Report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aiperf_magic.report import Report


@pytest.fixture
def measure(ip: Any) -> Callable[..., Report]:
    def run(body: str, options: str = "", *, gpu: bool = False) -> Report:
        ip.user_ns.pop("_aiperf_r", None)
        flags = "--var _aiperf_r --text" + ("" if gpu else " --no-gpu")
        result = ip.run_cell(f"%%aiperf {flags} {options}\n{body}")
        report = ip.user_ns.get("_aiperf_r")
        assert isinstance(report, Report), result
        return report

    return run
