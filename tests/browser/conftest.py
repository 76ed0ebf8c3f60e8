"""Fixtures for the browser tests: a real Jupyter server and headless Chromium.

Each server runs from this checkout on a free localhost port with a temporary root, config, data
and runtime folder (so nothing of the user's setup leaks in or is changed). The built extension
is linked into that data folder; kernels import this checkout's ``aiperf_magic`` via PYTHONPATH.
Chromium is Debian's (``apt-get install chromium``); no browser is ever downloaded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
APPS = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}


def built_extension() -> Path:
    """The prebuilt extension, built first when missing or older than its sources."""
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    if not hatch_build._is_fresh(ROOT):
        hatch_build.build_labextension(ROOT)
    return ROOT / hatch_build.OUTPUT_DIR


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    app: str
    url: str
    root: Path
    proc: subprocess.Popen[bytes]
    log: Path


def _wait_ready(server: Server, timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"jupyter {server.app} exited: {server.log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(server.url + "/api/status", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"jupyter {server.app} did not start in {timeout_s}s: {server.log.read_text()[-3000:]}")


def start_server(
    app: str,
    base: Path,
    *,
    extra_args: tuple[str, ...] = (),
    extra_env: dict[str, str] | None = None,
    quiet_news: bool = True,
) -> Server:
    """``extra_args`` go to ``jupyter <app>``, ``extra_env`` to its environment; ``quiet_news=False``
    leaves JupyterLab's news question on (unless those turn it off)."""
    root, data = base / "root", base / "data"
    for sub in (root, data / "labextensions", base / "config", base / "runtime", base / "ipython"):
        sub.mkdir(parents=True, exist_ok=True)
    (data / "labextensions" / "aiperf-magic").symlink_to(built_extension(), target_is_directory=True)
    if quiet_news:  # no "get notified about Jupyter news?" toast over the screenshots
        (base / "config" / "labconfig").mkdir()
        (base / "config" / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
        )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_DATA_DIR": str(data),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "IPYTHONDIR": str(base / "ipython"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "JUPYTER_PLATFORM_DIRS": "1",
        # the data folder above before the environment's: an installed aiperf-magic must not shadow this build
        "JUPYTER_PREFER_ENV_PATH": "0",
        **(extra_env or {}),
    }
    port = free_port()
    cls = APPS[app]
    cmd = [
        sys.executable, "-m", "jupyter", app, "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}",
        "--ServerApp.disable_check_xsrf=True", f"--{cls}.expose_app_in_browser=True",
        "--LabApp.extension_manager=readonly", *extra_args,
    ]  # fmt: skip
    if quiet_news:
        cmd.append("--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    if os.geteuid() == 0:  # containers often run tests as root
        cmd.append("--allow-root")
    log = base / f"{app}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(app, f"http://127.0.0.1:{port}", root, proc, log)
    try:
        _wait_ready(server)
        _check_extension(server)
    except Exception:
        stop_server(server)
        raise
    return server


def _check_extension(server: Server) -> None:
    """The page loads this checkout's build of the extension (its remoteEntry file), no other."""
    built = json.loads((built_extension() / "package.json").read_text())["jupyterlab"]["_build"]["load"]
    page = "lab" if server.app == "lab" else "tree"
    with urllib.request.urlopen(f"{server.url}/{page}", timeout=30) as resp:
        html = resp.read().decode()
    if built not in html:
        raise RuntimeError(f"jupyter {server.app} does not serve this checkout's extension build ({built})")


def stop_server(server: Server) -> None:
    """Stops the server and its kernels (they share its process group)."""
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.proc.wait(5)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.proc.pid, signal.SIGKILL)
    server.proc.wait(10)


@pytest.fixture(scope="session")
def extension_dir() -> Path:
    return built_extension()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _server_fixture(app: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_server(app, tmp_path_factory.mktemp(f"jupyter-{app}"))
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _server_fixture("lab", tmp_path_factory)


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _server_fixture("notebook", tmp_path_factory)


class Shots:
    """Numbered screenshots of one test's steps under test-artifacts/browser/<test>/."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.dir = ARTIFACTS / name
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.n = 0

    def __call__(self, step: str) -> None:
        self.n += 1
        self.page.screenshot(path=str(self.dir / f"{self.n:02d}-{step}.png"), full_page=True)


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.shots = Shots(page, request.node.name.replace("[", "-").rstrip("]"))
    yield page
    context.close()
