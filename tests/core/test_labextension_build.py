"""The notebook extension ships prebuilt: a fresh clone installs it without Node.js.

``aiperf_magic/labextension`` is committed with the digest of the sources it was built from
(``hatch_build.py``). These tests check that the committed build matches ``labextension/`` as it is
now, that it holds no stale chunk, and that building a wheel from a copy of the checkout, on a PATH
without ``node`` or ``npm``, ships the extension; once the sources change, the same build says what
to install.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import hatch_build  # noqa: E402

sys.path.remove(str(ROOT))

BUILT = ROOT / hatch_build.OUTPUT_DIR
REBUILD = (
    "labextension/ changed since the committed build in aiperf_magic/labextension: rebuild it "
    "(python -c 'import hatch_build, pathlib; hatch_build.build_labextension(pathlib.Path(\".\"))', "
    "which needs Node.js and npm) and commit the build with its sources.sha256"
)


def test_the_committed_build_is_made_from_the_sources_as_they_are() -> None:
    assert hatch_build._is_fresh(ROOT), REBUILD


def test_the_build_holds_its_entry_point_and_no_stale_chunk() -> None:
    load = json.loads((BUILT / "package.json").read_text())["jupyterlab"]["_build"]["load"]
    entry = BUILT / load
    assert entry.is_file()
    chunks = [p.name for p in (BUILT / "static").glob("*.js") if p.name not in (entry.name, "style.js")]
    text = entry.read_text()
    assert chunks and all(name.split(".")[0] in text for name in chunks), chunks
    assert len(list((BUILT / "static").glob("remoteEntry.*.js"))) == 1


def checkout_copy(dest: Path) -> Path:
    """The files a fresh clone of this checkout has (tracked, and new ones that are not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(src.read_bytes())
    return dest


def build_wheel(src: Path, out: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("AIPERF_SKIP_LABEXTENSION", "PYTHONPATH")}
    env["PATH"] = str(bin_dir)  # no node, no npm
    return subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-cache-dir", "-q",
         "-w", str(out), str(src)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.mark.slow
def test_a_fresh_clone_installs_the_extension_without_node(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    pytest.importorskip("hatchling")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    src = checkout_copy(tmp_path / "clone")
    built = build_wheel(src, tmp_path / "dist", bin_dir)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("aiperf_magic-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shared = [n for n in names if "/share/jupyter/labextensions/aiperf-magic/" in n]
    assert any(n.endswith("/package.json") for n in shared) and any(n.endswith("/install.json") for n in shared)
    assert any("/static/remoteEntry." in n for n in shared), shared
    # a change to the extension's sources needs a rebuild, and the build says what that takes
    (src / "labextension" / "src" / "index.ts").write_text((src / "labextension" / "src" / "index.ts").read_text()
                                                           + "\n// changed\n")
    stale = build_wheel(src, tmp_path / "dist2", bin_dir)
    assert stale.returncode != 0
    said = stale.stdout + stale.stderr
    assert "needs Node.js 18 or newer with npm" in said and "apt-get install nodejs npm" in said, said[-3000:]
