"""``aiperf lint``: formats, exit codes, notebooks with magics, folders, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aiperf_magic.cli import main

ROOT = Path(__file__).resolve().parents[1]
SLOW_PY = "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n"
KEYS = {"path", "cell", "line", "col", "end_line", "end_col", "code", "name", "message", "fixable", "fix"}


@pytest.fixture(autouse=True)
def known_statuses(rule_statuses) -> None:
    """These tests are about the linter, not about what the corpus measured: AIP101 on by default,
    AIP301 a preview rule."""
    rule_statuses(AIP101="default", AIP301="preview")


def notebook(*cells: tuple[str, str]) -> str:
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {
                    "cell_type": kind,
                    "metadata": {},
                    "source": src.splitlines(keepends=True),
                    **({"outputs": [], "execution_count": None} if kind == "code" else {}),
                }
                for kind, src in cells
            ],
        }
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "slow.py").write_text(SLOW_PY)
    (tmp_path / "clean.py").write_text("import numpy as np\nx = np.arange(10) ** 2\n")
    (tmp_path / "nb.ipynb").write_text(
        notebook(
            ("markdown", "# Training\nDataLoader(ds)"),
            ("code", "!pip list\nimport pandas as pd\nfrom torch.utils.data import DataLoader"),
            ("code", "%%bash\necho DataLoader"),
            ("code", "%%time\ndl = DataLoader(ds, batch_size=64)\n"),
            ("code", "def broken(:\n"),
            ("code", "df = pd.read_csv('a.csv')\nfor _, r in df.iterrows():\n    total += r['x']"),
        )
    )
    sub = tmp_path / "pkg" / ".ipynb_checkpoints"
    sub.mkdir(parents=True)
    (sub / "nb-checkpoint.ipynb").write_text(notebook(("code", SLOW_PY)))
    return tmp_path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code = main(["lint", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_json_contract_for_a_notebook(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, items = run_json(capsys, "--preview", str(project / "nb.ipynb"))
    assert code == 1
    assert all(set(i) == KEYS for i in items)
    got = [(i["cell"], i["line"], i["code"]) for i in items]
    # cell 3: %%time body, line counted within the cell (magic is line 1); names from cell 1 resolve
    assert got == [(3, 2, "AIP101"), (4, 1, "AIP000"), (5, 2, "AIP301")]
    assert items[0]["col"] == 6 and items[0]["end_col"] == 35 and items[0]["fixable"] is True
    # fixable is exact: a rewrite exists (no reason) or it does not (the reason says why)
    assert all(i["fixable"] == (i["fix"] is not None and i["fix"]["reason"] is None) for i in items)
    assert all(i["fix"]["reason"] for i in items if i["fix"] is not None and not i["fixable"])
    _, default = run_json(capsys, str(project / "nb.ipynb"))  # AIP301 is a preview rule
    assert [(i["cell"], i["code"]) for i in default] == [(3, "AIP101"), (4, "AIP000")]


def test_folder_is_recursive_and_skips_checkpoints(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, items = run_json(capsys, str(project))
    assert code == 1
    assert {Path(i["path"]).name for i in items} == {"nb.ipynb", "slow.py"}
    (py,) = [i for i in items if i["path"].endswith("slow.py")]
    assert py["cell"] is None and (py["line"], py["col"]) == (2, 10)


def test_text_format_and_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", str(project / "slow.py")]) == 1
    out = capsys.readouterr().out
    assert f"{project / 'slow.py'}:2:10: AIP101 [*] `DataLoader` without `num_workers`" in out
    assert "Found 1 finding" in out
    assert main(["lint", str(project / "clean.py")]) == 0
    assert "All checks passed!" in capsys.readouterr().out
    assert main(["lint", "--exit-zero", str(project / "slow.py")]) == 0
    capsys.readouterr()
    assert main(["lint", str(project / "nb.ipynb")]) == 1
    assert f"{project / 'nb.ipynb'}:cell 3:2:6: AIP101" in capsys.readouterr().out


def test_select_ignore_prefixes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, items = run_json(capsys, "--select", "AIP3", "--preview", str(project / "nb.ipynb"))
    assert [i["code"] for i in items] == ["AIP301"]
    _, items = run_json(capsys, "--ignore", "AIP1,AIP000", "--preview", str(project / "nb.ipynb"))
    assert [i["code"] for i in items] == ["AIP301"]
    code, items = run_json(capsys, "--ignore", "AIP", str(project))
    assert (code, items) == (0, [])


def test_sarif(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--format", "sarif", "--preview", str(project)]) == 1
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert "AIP301" in rule_ids and all(r["help"]["markdown"] for r in run["tool"]["driver"]["rules"])
    res = {r["ruleId"]: r for r in run["results"]}
    region = res["AIP301"]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 2 and res["AIP301"]["properties"]["cell"] == 5
    assert rule_ids[res["AIP301"]["ruleIndex"]] == "AIP301"


def test_read_errors_exit_2_and_other_files_still_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.ipynb").write_text("{not json")
    (tmp_path / "latin.py").write_bytes(b"x = '\xe9'\n")
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "slow.py").write_text(SLOW_PY)
    code = main(["lint", "--format", "json", str(tmp_path), str(tmp_path / "missing.py")])
    captured = capsys.readouterr()
    assert code == 2
    assert [i["code"] for i in json.loads(captured.out)] == ["AIP101"]
    assert "bad.ipynb: invalid notebook JSON" in captured.err
    assert "latin.py: not valid text" in captured.err
    assert "missing.py: no such file or directory" in captured.err


def test_coding_cookie_is_honoured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "l1.py").write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n" + SLOW_PY.encode())
    assert main(["lint", str(tmp_path / "l1.py")]) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint"]) == 2
    assert main(["lint", "--format", "xml", "a.py"]) == 2
    assert main([]) == 2
    capsys.readouterr()


def test_fix_flags_without_fixes_module_say_so(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "aiperf_magic.lint.fix_files", None)  # as if not installed
    assert main(["lint", "--diff", str(project / "slow.py")]) == 2
    assert "fixes are not available" in capsys.readouterr().err


def test_rules_and_explain_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert "AIP301" in capsys.readouterr().out
    assert main(["explain", "aip301"]) == 0
    assert "## Why is this bad?" in capsys.readouterr().out
    assert main(["explain", "AIP31"]) == 2
    assert "Did you mean AIP301" in capsys.readouterr().out


def test_python_dash_m_entry_point(project: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "aiperf_magic", "lint", "--select", "AIP101", "--format", "json",
         str(project / "slow.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 1
    assert json.loads(out.stdout)[0]["code"] == "AIP101"


def test_pre_commit_hook_declared() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: aiperf-lint" in text and "entry: aiperf lint" in text and "jupyter" in text


def test_fix_flags_call_fix_file(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    calls: list[dict] = []

    def fix_file(path: Path, *, select: object, ignore: object, unsafe: bool, write: bool) -> object:
        calls.append({"path": path.name, "select": select, "unsafe": unsafe, "write": write})
        return types.SimpleNamespace(
            changed=path.name == "slow.py", diff=f"--- {path.name}\n" if write is False else ""
        )

    fake = types.ModuleType("aiperf_magic.lint.fix_files")
    fake.fix_file = fix_file  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "aiperf_magic.lint.fix_files", fake)
    assert main(["lint", "--diff", "--select", "AIP1", str(project / "slow.py")]) == 1
    assert capsys.readouterr().out == "--- slow.py\n"
    assert calls[-1] == {"path": "slow.py", "select": ["AIP1"], "unsafe": False, "write": False}
    assert main(["lint", "--diff", str(project / "clean.py")]) == 0
    capsys.readouterr()
    assert main(["lint", "--fix", "--unsafe-fixes", str(project / "clean.py")]) == 0
    assert calls[-1]["write"] is True and calls[-1]["unsafe"] is True
    assert "All checks passed!" in capsys.readouterr().out


def test_diff_with_the_real_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("aiperf_magic.lint.fix_files")
    (tmp_path / "amp.py").write_text("from torch.cuda.amp import GradScaler\nscaler = GradScaler()\n")
    (tmp_path / "bad.ipynb").write_text("{bad")
    assert main(["lint", "--diff", "--preview", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "+from torch.amp import GradScaler" in captured.out
    assert "bad.ipynb" in captured.err and "JSON" in captured.err
    assert (tmp_path / "amp.py").read_text().startswith("from torch.cuda.amp")  # --diff writes nothing


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path) -> None:
    for i in range(300):
        (tmp_path / f"m{i}.py").write_text("import pandas as pd\nfor _, r in df.iterrows():\n    total += r.x\n")
    proc = subprocess.run(f"'{sys.executable}' -m aiperf_magic lint --select AIP301 '{tmp_path}' | head -1", shell=True,
                          capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.stdout.count("\n") == 1 and "AIP301" in proc.stdout
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


# -- --fix stays in its tree, keeps going, and says what it could not do ------------------------------

ROW_LOOP = "with open(path) as fh:\n    for line in fh.readlines():\n        n += 1\n"


def test_fix_never_writes_through_a_link_that_leaves_the_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir(), outside.mkdir()
    (outside / "victim.py").write_text(ROW_LOOP)
    (tree / "link.py").symlink_to("../outside/victim.py")
    (tree / "own.py").write_text(ROW_LOOP)
    (tree / "alias.py").symlink_to("own.py")  # a link to a file of the tree: fixed once, as itself
    (tree / "dir-link").symlink_to("../outside", target_is_directory=True)  # never entered
    assert main(["lint", "--fix", "--preview", str(tree)]) == 0
    err = capsys.readouterr().err
    assert (outside / "victim.py").read_text() == ROW_LOOP
    assert "for line in fh:" in (tree / "own.py").read_text() and (tree / "alias.py").is_symlink()
    warning = f"aiperf: warning: {tree / 'link.py'}: a symbolic link to ../outside/victim.py, outside the paths given"
    assert warning in err
    assert err.count("warning") == 1 and "fixed 1 file" in err
    # named on the command line, the link is still not written through
    assert main(["lint", "--fix", "--preview", str(tree / "link.py")]) == 0
    assert (outside / "victim.py").read_text() == ROW_LOOP
    assert "a symbolic link to ../outside/victim.py" in capsys.readouterr().err
    # --diff previews --fix: the same link is skipped
    assert main(["lint", "--diff", "--preview", str(tree)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "link.py: a symbolic link" in captured.err


def test_broken_and_looping_links_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gone.py").symlink_to("missing.py")
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "slow.py").write_text(SLOW_PY)
    assert main(["lint", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'gone.py'}: a broken symbolic link (to missing.py): skipped" in err
    assert f"{tmp_path / 'loop.py'}: a symbolic link that loops: skipped" in err


@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_malformed_notebooks_are_one_line_and_the_next_files_still_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    (tmp_path / "a_list.ipynb").write_text("[]")
    (tmp_path / "b_cell.ipynb").write_text('{"cells": [1]}')
    (tmp_path / "c_int.ipynb").write_text('{"cells": [{"cell_type": "code", "source": 7}]}')
    (tmp_path / "d_good.py").write_text(ROW_LOOP)
    assert main(["lint", mode, "--preview", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert [line.split(": ")[2].rsplit("/", 1)[-1] for line in errors if "error" in line] == [
        "a_list.ipynb", "b_cell.ipynb", "c_int.ipynb"
    ]
    assert "Traceback" not in captured.err and "All checks passed!" not in captured.out
    if mode == "--fix":
        assert "for line in fh:" in (tmp_path / "d_good.py").read_text()
        assert "3 files could not be read or fixed" in captured.out
    else:
        assert "+    for line in fh:" in captured.out


def test_a_write_failure_is_a_message_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "locked.py").write_text(ROW_LOOP)
    (tmp_path / "locked.py").chmod(0o444)
    (tmp_path / "open.py").write_text(ROW_LOOP)
    assert main(["lint", "--fix", "--preview", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert f"aiperf: error: {tmp_path / 'locked.py'}: read-only file: not rewritten" in captured.err
    assert (tmp_path / "locked.py").read_text() == ROW_LOOP and "for line in fh:" in (tmp_path / "open.py").read_text()


def test_each_read_error_is_printed_once_and_never_all_checks_passed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.ipynb").write_text("{not json")
    (tmp_path / "clean.py").write_text("x = 1\n")
    for args in (["--fix"], []):
        assert main(["lint", *args, str(tmp_path)]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("bad.ipynb") == 1
        assert "All checks passed!" not in captured.out
        assert "1 file could not be read or fixed" in captured.out
    assert main(["lint", "--format", "sarif", str(tmp_path)]) == 2
    invocation = json.loads(capsys.readouterr().out)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False


def test_sarif_uris_are_percent_encoded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "my dir#1"
    folder.mkdir()
    (folder / "100% é?.py").write_text(SLOW_PY)
    monkeypatch.chdir(tmp_path)
    for target, uri in [
        ("my dir#1", "my%20dir%231/100%25%20%C3%A9%3F.py"),
        (str(folder), (folder / "100% é?.py").as_uri()),
    ]:
        assert main(["lint", "--format", "sarif", target]) == 1
        run = json.loads(capsys.readouterr().out)["runs"][0]
        assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
        assert "%20" in uri and " " not in uri and "#1" not in uri
