"""``make demo`` opens JupyterLab without the "get notified about Jupyter news?" question.

The demo's environment and flags are read from ``make -n demo``, so the test follows the command
users run. A server without them shows the question: the check can see it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest

from .conftest import ROOT, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NEWS = re.compile(r"Jupyter news", re.IGNORECASE)


def demo_command() -> tuple[dict[str, str], tuple[str, ...]]:
    """(environment, --LabApp flags) of the `jupyter lab` line that `make demo` runs."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    printed = subprocess.run(["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    command = next(line for line in printed.replace("\\\n", " ").splitlines() if "jupyter lab" in line)
    env = {name: value.split("${", 1)[0] for name, value in re.findall(r'(\w+)="([^"]*)"', command.split("jupyter")[0])}
    return env, tuple(re.findall(r"--LabApp\.\S+", command))


def news_question_shown(page: Any, server: Any) -> bool:
    page.goto(f"{server.url}/lab?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=90_000)
    try:  # the question comes a moment after the page is ready
        page.get_by_text(NEWS).first.wait_for(state="visible", timeout=15_000)
        return True
    except Exception:
        return False


@pytest.mark.parametrize("demo", [False, True], ids=["plain-lab", "make-demo"])
def test_make_demo_asks_nothing_about_news(page: Any, tmp_path_factory: Any, demo: bool) -> None:
    env, flags = demo_command()
    assert "JUPYTER_CONFIG_PATH" in env and "--LabApp.news_url=None" in flags
    base = tmp_path_factory.mktemp("demo")
    server = (
        start_server("lab", base, extra_args=flags, extra_env=env, quiet_news=False)
        if demo
        else start_server("lab", base, quiet_news=False)
    )
    try:
        shown = news_question_shown(page, server)
        page.shots("make-demo" if demo else "plain-lab")
    finally:
        stop_server(server)
    assert shown is not demo
