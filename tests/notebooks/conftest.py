"""Run the tutorial notebooks in a real ipykernel, the way a user's Jupyter would.

The kernel is this interpreter (a kernelspec written into a temporary ``JUPYTER_PATH``), with the
repository first on ``PYTHONPATH`` so it imports this checkout's ``aiperf_magic``. Each notebook runs
once per session; the tests read the executed copy.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
CELL_TIMEOUT_S = 180
MARKER = "AIPERF-TUTORIAL-REPORTS:"

# Appended to the executed copy only (never to the committed notebook): every Report the session
# produced, newest last, as JSON the test can read back with Report.from_dict.
PROBE = f"""
import json as _json
from aiperf_magic.report import Report as _Report
_magics = getattr(get_ipython(), "_aiperf_magics", None)
_reports = list(_magics.state.reports) if _magics is not None else []
_named = {{_k: _v for _k, _v in dict(globals()).items()
          if isinstance(_v, _Report) and not _k.startswith("_")}}
print({MARKER!r} + _json.dumps({{
    "session": [_r.to_dict() for _r in _reports],
    "named": {{_k: _v.to_dict() for _k, _v in _named.items()}},
}}))
"""

# A site hook that makes ``import torch`` fail, as on a machine without PyTorch.
NO_TORCH_SITE = '''
import sys


class _HideTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r} (hidden by the notebook tests)", name=name)
        return None


sys.meta_path.insert(0, _HideTorch())
'''


@dataclass
class Executed:
    name: str
    nb: Any  # the executed nbformat notebook (probe cell removed)
    seconds: float
    session: list[Any] = field(default_factory=list)  # Reports, in the order the cells made them
    named: dict[str, Any] = field(default_factory=dict)  # Reports kept in variables (--var)


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOK_DIR.glob("*.ipynb"))


@pytest.fixture(scope="session")
def kernel_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary JUPYTER_PATH whose ``python3`` kernel is this interpreter."""
    jupyter_path = tmp_path_factory.mktemp("jupyter")
    spec_dir = jupyter_path / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return jupyter_path


def execute(path: Path, jupyter_path: Path, workdir: Path, extra_pythonpath: Path | None = None) -> Executed:
    import nbformat
    from nbclient import NotebookClient

    from aiperf_magic.report import Report

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    paths = [str(p) for p in (extra_pythonpath, ROOT) if p is not None]
    env = {
        "JUPYTER_PATH": str(jupyter_path),
        "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",  # the debugger's frozen-modules notice on stderr
    }
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(workdir)}})
        start = time.perf_counter()
        client.execute()
        seconds = time.perf_counter() - start
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    probe = nb.cells.pop()
    payload = None
    for output in probe.get("outputs", []):
        text = output.get("text", "")
        if output.get("output_type") == "stream" and MARKER in text:
            payload = json.loads(text.split(MARKER, 1)[1])
    if payload is None:
        raise AssertionError(f"{path.name}: the report probe printed nothing: {probe.get('outputs')}")
    return Executed(
        name=path.stem,
        nb=nb,
        seconds=seconds,
        session=[Report.from_dict(d) for d in payload["session"]],
        named={k: Report.from_dict(v) for k, v in payload["named"].items()},
    )


@pytest.fixture(scope="session")
def executed(kernel_env: Path, tmp_path_factory: pytest.TempPathFactory):
    """name -> Executed, each notebook run once per test session, on first use."""
    cache: dict[str, Executed] = {}

    def get(name: str) -> Executed:
        if name not in cache:
            workdir = tmp_path_factory.mktemp(name)
            cache[name] = execute(NOTEBOOK_DIR / f"{name}.ipynb", kernel_env, workdir)
            print(f"\n{name}: executed in {cache[name].seconds:.1f} s")
        return cache[name]

    return get


@pytest.fixture(scope="session")
def executed_without_torch(kernel_env: Path, tmp_path_factory: pytest.TempPathFactory):
    site = tmp_path_factory.mktemp("no-torch-site")
    (site / "sitecustomize.py").write_text(NO_TORCH_SITE)

    def get(name: str) -> Executed:
        workdir = tmp_path_factory.mktemp(f"{name}-no-torch")
        return execute(NOTEBOOK_DIR / f"{name}.ipynb", kernel_env, workdir, extra_pythonpath=site)

    return get
