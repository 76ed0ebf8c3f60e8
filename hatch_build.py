"""Hatch build hook: builds the JupyterLab extension into ``aiperf_magic/labextension``.

``pip install .`` runs it, so the wheel ships the prebuilt extension under
``share/jupyter/labextensions/aiperf-magic``. It needs Node.js (``npm``) and JupyterLab (a build
requirement, for the versions of the shared packages). A checkout that already holds a build
newer than every source file skips the work. ``AIPERF_SKIP_LABEXTENSION=1`` builds a wheel
without the extension (the panel then falls back to its Copy button and ``%aiperf apply``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE_DIR = "labextension"
OUTPUT_DIR = "aiperf_magic/labextension"


def _newest_source(root: Path) -> float:
    src = root / SOURCE_DIR
    files = [src / "package.json", src / "tsconfig.json", *(src / "src").rglob("*")]
    files += (src / "style").rglob("*")
    return max(f.stat().st_mtime for f in files if f.is_file())


def _is_fresh(root: Path) -> bool:
    built = root / OUTPUT_DIR / "package.json"
    return built.is_file() and built.stat().st_mtime >= _newest_source(root)


def _core_path() -> str:
    """JupyterLab's staging folder: it pins the versions of the packages the app shares."""
    import jupyterlab

    return str(Path(jupyterlab.__file__).parent / "staging")


def build_labextension(root: Path) -> None:
    src = root.resolve() / SOURCE_DIR
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError(
            "Building the aiperf-magic JupyterLab extension needs Node.js and npm on PATH "
            "(or set AIPERF_SKIP_LABEXTENSION=1 to build without it)."
        )

    def run(*cmd: str) -> None:
        subprocess.run(cmd, cwd=src, check=True)

    if not (src / "node_modules" / "@jupyterlab" / "builder").is_dir():
        run(npm, "ci" if (src / "package-lock.json").is_file() else "install", "--no-audit", "--no-fund")
    run(npm, "run", "build:lib")
    builder = src / "node_modules" / "@jupyterlab" / "builder" / "lib" / "build-labextension.js"
    run(shutil.which("node") or "node", str(builder), "--core-path", _core_path(), ".")


class LabExtensionBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("AIPERF_SKIP_LABEXTENSION") == "1":
            return
        root = Path(self.root)
        if not _is_fresh(root):
            build_labextension(root)
