"""``make demo`` opens JupyterLab without the "get notified about Jupyter news?" question, with the
tutorials trusted, and Run All leaves the quickstart tutorial as it is.

The demo's environment, flags and trust step are read from ``make -n demo``, so the tests follow the
command users run. A server without them shows the question and untrusted tutorials: the checks can
see both.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Any

import nbformat
import pytest

from tests.browser.test_panel_browser import NB, open_notebook, run_all

from .conftest import ROOT, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NEWS = re.compile(r"Jupyter news", re.IGNORECASE)


def demo_lines() -> list[str]:
    """The commands `make demo` runs, one a line."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    printed = subprocess.run(["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return printed.replace("\\\n", " ").splitlines()


def demo_command() -> tuple[dict[str, str], tuple[str, ...]]:
    """(environment, --LabApp flags) of the `jupyter lab` line that `make demo` runs."""
    command = next(line for line in demo_lines() if "jupyter lab" in line)
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


def trusted_cells(page: Any, server: Any, name: str) -> list[bool]:
    """Whether each code cell of the tutorial opened trusted (read once the notebook has loaded)."""
    count = len(nbformat.read(server.root / name, as_version=4).cells)
    open_notebook(page, server, name)
    page.wait_for_function(f"n => {NB}.content.model.cells.length === n", arg=count)
    return page.evaluate(  # type: ignore[no-any-return]
        f"""() => Array.from({NB}.content.model.cells).filter(c => c.type === 'code').map(c => c.trusted)"""
    )


@pytest.mark.parametrize("demo", [False, True], ids=["plain-lab", "make-demo"])
def test_make_demo_opens_the_tutorials_trusted(page: Any, tmp_path_factory: Any, demo: bool) -> None:
    env, flags = demo_command()
    base = tmp_path_factory.mktemp("trust")
    data = base / "data"
    data.mkdir()
    if demo:  # the trust step of `make demo`, signing into the data folder the server will read
        trust = next(line for line in demo_lines() if "jupyter trust" in line)
        subprocess.run(trust, shell=True, cwd=ROOT, check=True, capture_output=True,
                       env={**os.environ, "JUPYTER_DATA_DIR": str(data), "JUPYTER_PLATFORM_DIRS": "1"})
    server = start_server("lab", base, extra_args=flags, extra_env=env)
    try:
        for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
            shutil.copy(path, server.root / path.name)
        trusted = trusted_cells(page, server, "00_quickstart.ipynb")
        page.shots("make-demo" if demo else "plain-lab")
    finally:
        stop_server(server)
    assert len(trusted) > 5 and all(trusted) is demo and any(trusted) is demo


def test_quickstart_run_all_adds_no_cell(page: Any, lab: Any) -> None:
    name = "00_quickstart.ipynb"
    shutil.copy(ROOT / "notebooks" / name, lab.root / name)
    committed = [c.source for c in nbformat.read(ROOT / "notebooks" / name, as_version=4).cells]
    open_notebook(page, lab, name)
    run_all(page)
    last = len(committed) - 1
    page.wait_for_function(  # Run All is over once the last cell ran (it has a count) and the kernel idles
        f"""() => {{ const cells = {NB}.content.model.cells;
             const code = Array.from(cells).filter(c => c.type === 'code');
             return code[code.length - 1].executionCount !== null
                 && {NB}.sessionContext.session?.kernel?.status === 'idle'; }}""",
        timeout=600_000,
    )
    page.wait_for_timeout(1000)  # an inserted cell would arrive with the last reply
    sources = page.evaluate(f"() => Array.from({NB}.content.model.cells).map(c => c.sharedModel.getSource())")
    assert len(sources) == len(committed) and sources == committed, last
    errors = page.evaluate(
        f"""() => Array.from({NB}.content.model.cells).filter(c => c.type === 'code')
             .flatMap(c => c.toJSON().outputs.filter(o => o.output_type === 'error').map(o => o.ename))"""
    )
    assert errors == []
    page.shots("quickstart-run-all")
