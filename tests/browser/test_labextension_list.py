"""`jupyter labextension list` finds the built extension, enabled, with its dependencies met."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


def test_labextension_list_shows_it_enabled(tmp_path: Path, extension_dir: Path) -> None:
    data = tmp_path / "data"
    (data / "labextensions").mkdir(parents=True)
    (data / "labextensions" / "aiperf-magic").symlink_to(extension_dir, target_is_directory=True)
    env = {**os.environ, "JUPYTER_DATA_DIR": str(data), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    out = subprocess.run(
        [sys.executable, "-m", "jupyter", "labextension", "list"],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    text = out.stdout + out.stderr
    line = next((ln for ln in text.splitlines() if "aiperf-magic" in ln), "")
    assert "enabled" in line and "OK" in line, text
