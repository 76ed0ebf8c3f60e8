"""Hatch build hook: the JupyterLab extension in ``aiperf_magic/labextension``, prebuilt and shipped.

The built extension is committed with the sources it was built from, so ``pip install .`` (and
``make demo``) from a fresh clone needs no Node.js: the wheel ships the build under
``share/jupyter/labextensions/aiperf-magic``. The build records a digest of its sources
(``labextension/package.json``, ``package-lock.json``, ``tsconfig.json``, ``src/``, ``style/``) in
``BUILD_STAMP``; when the sources no longer match it, the hook rebuilds, which needs Node.js and npm
and says so when they are missing. ``AIPERF_SKIP_LABEXTENSION=1`` never builds: the wheel ships the
extension as last built (none in a checkout without one; the panel then falls back to its Copy
button and ``%aiperf apply``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE_DIR = "labextension"
OUTPUT_DIR = "aiperf_magic/labextension"
BUILD_STAMP = "sources.sha256"  # in OUTPUT_DIR: the digest of the sources the build was made from
NEEDS_NODE = (
    "The aiperf-magic notebook extension in {out} was built from other sources than {src}/ holds, and "
    "rebuilding it needs Node.js 18 or newer with npm on PATH (Debian/Ubuntu: apt-get install nodejs npm; "
    "elsewhere: https://nodejs.org). To install the extension as it was last built instead, set "
    "AIPERF_SKIP_LABEXTENSION=1."
)


def source_files(root: Path) -> list[Path]:
    src = root / SOURCE_DIR
    files = [src / "package.json", src / "package-lock.json", src / "tsconfig.json"]
    files += sorted(p for d in ("src", "style") for p in (src / d).rglob("*") if p.is_file())
    return [f for f in files if f.is_file()]


def source_digest(root: Path) -> str:
    """SHA-256 over the extension's sources, names and contents (line endings as checked out)."""
    digest = hashlib.sha256()
    for path in source_files(root):
        digest.update(path.relative_to(root / SOURCE_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return digest.hexdigest()


def _is_fresh(root: Path) -> bool:
    """The committed build is there and was made from the sources as they are now."""
    out = root / OUTPUT_DIR
    stamp = out / BUILD_STAMP
    return (
        (out / "package.json").is_file()
        and stamp.is_file()
        and stamp.read_text().strip() == source_digest(root)
    )


def _core_path() -> str:
    """JupyterLab's staging folder: it pins the versions of the packages the app shares."""
    import jupyterlab

    return str(Path(jupyterlab.__file__).parent / "staging")


def build_labextension(root: Path) -> None:
    src = root.resolve() / SOURCE_DIR
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        raise RuntimeError(NEEDS_NODE.format(out=OUTPUT_DIR, src=SOURCE_DIR))

    def run(*cmd: str) -> None:
        subprocess.run(cmd, cwd=src, check=True)

    if not (src / "node_modules" / "@jupyterlab" / "builder").is_dir():
        run(npm, "ci" if (src / "package-lock.json").is_file() else "install", "--no-audit", "--no-fund")
    run(npm, "run", "build:lib")
    out = root.resolve() / OUTPUT_DIR
    shutil.rmtree(out / "static", ignore_errors=True)  # file names carry content hashes: no stale chunks
    builder = src / "node_modules" / "@jupyterlab" / "builder" / "lib" / "build-labextension.js"
    run(node, str(builder), "--core-path", _core_path(), ".")
    (out / BUILD_STAMP).write_text(source_digest(root) + "\n")


class LabExtensionBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("AIPERF_SKIP_LABEXTENSION") == "1":
            return
        root = Path(self.root)
        if not _is_fresh(root):
            build_labextension(root)
