"""``measure``: run one cell under ``%%aiperf`` in the real IPython shell (``ip``) and return its Report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aiperf_magic.report import Report


@pytest.fixture
def measure(ip: Any) -> Callable[..., Report]:
    def run(body: str, options: str = "") -> Report:
        ip.user_ns.pop("_aiperf_r", None)
        result = ip.run_cell(f"%%aiperf --var _aiperf_r --text --no-gpu {options}\n{body}")
        report = ip.user_ns.get("_aiperf_r")
        assert isinstance(report, Report), result
        return report

    return run
