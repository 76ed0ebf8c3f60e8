"""The tutorials: committed without outputs, and executed headless in a real kernel.

Each executed notebook must run without an error output, every ``%%aiperf`` cell must have produced a
Report (read back from the kernel as JSON), and the traps each tutorial teaches must be the ones
aiperf reports for it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.conftest import NOTEBOOK_DIR, ROOT, notebook_paths

TUTORIALS = [
    "00_quickstart",
    "01_data_loading",
    "02_data_structures",
    "03_gil_and_concurrency",
    "04_framework_traps",
    "05_to_production",
    "06_beyond_one_machine",
]
USES_TORCH = ["01_data_loading", "04_framework_traps", "05_to_production"]

# Report variable (``%%aiperf --var NAME``) -> rule codes its cell must be flagged with. These are the
# traps the notebook's prose says aiperf finds there.
EXPECTED_FINDINGS = {
    "00_quickstart": {"before": {"AIP301"}},
    "01_data_loading": {"serial": {"AIP101"}, "listy": {"AIP103"}},
    "02_data_structures": {
        "scan": {"AIP202"}, "listwise": {"AIP201"}, "growing": {"AIP203"},
        "row_loop": {"AIP301"}, "row_apply": {"AIP302"}, "loaded": {"AIP104"},
    },
    "03_gil_and_concurrency": {"one_by_one": {"AIP402"}},
    "04_framework_traps": {"copied": {"AIP501"}, "recorded": {"AIP502"}},
    "05_to_production": {},
    "06_beyond_one_machine": {},
}
# The fixed twins: the trap the rewrite removed must no longer be reported.
FIXED = {
    "00_quickstart": {"after": "AIP301"},
    "02_data_structures": {"hashed": "AIP202", "vectorised": "AIP201", "preallocated": "AIP203",
                           "column_math": "AIP301", "column_ratio": "AIP302", "streamed": "AIP104"},
    "04_framework_traps": {"on_device": "AIP501", "not_recorded": "AIP502"},
}
# Cells that mostly wait: the runtime verdict must say so (holds even on a busy machine).
EXPECTED_VERDICTS = {
    "03_gil_and_concurrency": {"one_by_one": "AIP903"},
    # a Dask LocalCluster: what the cluster's task stream says limits each cell
    "06_beyond_one_machine": {"tiny": "AIP911", "heavy_run": "AIP910", "pinned": "AIP912"},
}
# Notebook -> codes its `aiperf lint` cells must print (they lint a notebook the tutorial writes).
EXPECTED_LINT = {
    "00_quickstart": {"AIP301", "AIP202"},
    "05_to_production": {"AIP101", "AIP502", "AIP503", "exit status: 1", "SARIF 2.1.0"},
}
# Text in any output that means a cell failed even though no "error" output was produced
# (IPython prints UsageError to stderr; `!cmd` failures land on stdout).
FAILURE_TEXT = re.compile(r"Traceback \(most recent call last\)|UsageError|No module named|"
                          r"aiperf: (report failed|measurement not started)")
# Prose must not quote measured speedups: those are printed by the notebook from its own timings.
QUOTED_SPEEDUP = re.compile(r"\d+(\.\d+)?\s*(×|x\b|times (faster|slower|the speed|less|more))", re.I)
AIPERF_VAR = re.compile(r"^%%aiperf\b[^\n]*--var[ =](\w+)")


def aiperf_cells(nb) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code" and c.source.lstrip().startswith("%%aiperf")
            and not c.source.lstrip().split("\n", 1)[0].rstrip().endswith("?")]


# -- the committed files ------------------------------------------------------------------------------
def test_every_tutorial_is_there():
    assert [p.stem for p in notebook_paths()] == TUTORIALS


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_committed_notebook_has_no_outputs(path: Path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert set(nb.metadata) <= {"kernelspec", "language_info"}, f"stray notebook metadata: {set(nb.metadata)}"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    for cell in nb.cells:
        assert not cell.get("metadata"), f"cell {cell.get('id')} has metadata: {cell.metadata}"
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {cell.get('id')} was committed with outputs"
            assert cell.execution_count is None, f"cell {cell.get('id')} has an execution count"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_prose_quotes_no_measured_numbers(path: Path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = QUOTED_SPEEDUP.search(cell.source)
            assert match is None, f"{path.stem}: prose quotes a number ({match.group(0)!r}); print it instead"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_each_tutorial_measures_with_aiperf(path: Path):
    nb = nbformat.read(path, as_version=4)
    assert nb.cells[1].source.strip() == "%load_ext aiperf_magic"
    assert aiperf_cells(nb), f"{path.stem} has no %%aiperf cell"


# A cell that edits its own notebook when it runs (``%aiperf apply`` inserts the rewrite as a new cell below
# it) would make Run All change the tutorial: such commands are shown in the prose, not run.
EDITS_THE_NOTEBOOK = re.compile(r"^\s*%aiperf\s+apply\b|set_next_input", re.M)


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_running_a_tutorial_adds_no_cell(path: Path):
    nb = nbformat.read(path, as_version=4)
    editing = [c.get("id") for c in nb.cells if c.cell_type == "code" and EDITS_THE_NOTEBOOK.search(c.source)]
    assert editing == [], f"{path.stem}: these cells would edit the notebook on Run All"


# -- executed in a kernel --------------------------------------------------------------------------------
def failures(nb) -> list[str]:
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                found.append(f"{cell.get('id')}: {output.get('ename')}: {output.get('evalue')}")
            text = output.get("text", "") or output.get("data", {}).get("text/plain", "")
            if FAILURE_TEXT.search(text):
                found.append(f"{cell.get('id')}: {text[:500]}")
    return found


@pytest.mark.notebooks
@pytest.mark.parametrize("name", TUTORIALS)
def test_tutorial_runs_clean_and_reports(executed, name: str):
    run = executed(name)
    assert failures(run.nb) == []
    cells = aiperf_cells(run.nb)
    assert len(run.session) == len(cells), "every %%aiperf cell must produce exactly one report"
    for source, report in zip(cells, run.session, strict=True):
        body = source.lstrip("\n").split("\n", 1)[1] if "\n" in source else ""
        assert report.source.strip() == body.strip()
        assert report.error is None, f"{report.error} in:\n{body}"
        assert report.wall_s > 0 and report.cpu_s >= 0
        assert report.samples.t, "the sampler recorded nothing"
    wanted = {m.group(1) for s in cells if (m := AIPERF_VAR.match(s.lstrip()))}
    assert wanted <= set(run.named), f"reports missing from the namespace: {wanted - set(run.named)}"


@pytest.mark.notebooks
@pytest.mark.parametrize("name", [n for n in TUTORIALS if EXPECTED_FINDINGS[n] or FIXED.get(n)])
def test_tutorial_traps_are_found(executed, name: str):
    run = executed(name)
    for var, codes in EXPECTED_FINDINGS[name].items():
        found = {f.code for f in run.named[var].findings}
        assert codes <= found, f"{name}: cell --var {var} should report {codes}, reported {found}"
    for var, code in FIXED.get(name, {}).items():
        found = {f.code for f in run.named[var].findings}
        assert code not in found, f"{name}: the fixed cell --var {var} still reports {code}"


@pytest.mark.notebooks
@pytest.mark.parametrize("name", sorted(EXPECTED_LINT))
def test_tutorial_lint_cells_report_the_traps(executed, name: str):
    run = executed(name)
    lint_cells = [c for c in run.nb.cells if c.cell_type == "code"
                  and ("aiperf_magic lint" in c.source or "aiperf_lint(" in c.source)]
    assert lint_cells, f"{name} has no cell running aiperf lint"
    printed = "".join(o.get("text", "") for c in lint_cells for o in c.get("outputs", []))
    missing = {text for text in EXPECTED_LINT[name] if text not in printed}
    assert not missing, f"{name}: the lint cells did not print {missing}"


@pytest.mark.notebooks
@pytest.mark.parametrize("name", sorted(EXPECTED_VERDICTS))
def test_tutorial_verdicts(executed, name: str):
    run = executed(name)
    for var, code in EXPECTED_VERDICTS[name].items():
        verdict = run.named[var].verdict
        assert verdict is not None and verdict.code == code, f"{name}: --var {var} verdict {verdict}"


@pytest.mark.notebooks
@pytest.mark.parametrize("name", USES_TORCH)
def test_tutorial_runs_without_torch(executed_without_torch, name: str):
    run = executed_without_torch(name)
    assert failures(run.nb) == []
    printed = "".join(o.get("text", "") for c in run.nb.cells for o in c.get("outputs", []))
    assert "PyTorch is not installed" in printed
    assert len(run.session) == len(aiperf_cells(run.nb))
    assert all(r.error is None for r in run.session)


@pytest.mark.notebooks
def test_torch_profile_sees_the_waiting_loader(executed):
    profile = executed("01_data_loading").named["profiled"].torch_profile
    assert profile is not None and profile.get("dataloader"), f"no DataLoader summary in {profile}"
    assert profile["dataloader"]["input_bound"] is True


def test_binder_installs_this_checkout_with_cpu_torch():
    yaml = pytest.importorskip("yaml")
    env = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text())
    pip = next(dep["pip"] for dep in env["dependencies"] if isinstance(dep, dict))
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in pip and "torch" in pip
    # the notebook extension ships prebuilt (tests/core/test_labextension_build.py): no Node.js to install
    assert not any(str(dep).startswith("nodejs") for dep in env["dependencies"])
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert 'pip install --no-cache-dir ".[pandas]"' in post_build.read_text()
    docs = (ROOT / "docs" / "tutorials.md").read_text()
    assert "https://mybinder.org/v2/gh/OWNER/aiperf-magic/HEAD?labpath=notebooks%2F00_quickstart.ipynb" in docs


def test_notebook_dir_holds_only_tutorials():
    stray = [p.name for p in NOTEBOOK_DIR.iterdir()
             if p.suffix != ".ipynb" and p.name not in {"data", ".ipynb_checkpoints"}]
    assert stray == []


MAX_EXECUTED_BYTES = 1_000_000
SCRIPT_TAG = re.compile(r"<script\b.*?</script>", re.S | re.I)


@pytest.mark.notebooks
@pytest.mark.parametrize("name", TUTORIALS)
def test_executed_tutorial_is_small_and_exports_the_static_report(executed, name: str):
    """Executed with widget state stored (as nbclient does): at most 1 MB, and nbconvert's HTML shows
    every report as text (its header, findings and diffs), with no script needed."""
    from html import unescape

    from nbconvert import HTMLExporter

    run = executed(name)
    size = len(nbformat.writes(run.nb).encode())
    assert size <= MAX_EXECUTED_BYTES, f"{name}: executed notebook is {size:,} bytes"
    state = run.nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    assert not any("plotly" in str(s.get("model_module", "")) for s in state.values()), "a plotly widget was saved"
    html, _ = HTMLExporter().from_notebook_node(run.nb)
    visible = unescape(re.sub(r"<[^>]+>", "", SCRIPT_TAG.sub("", html)))  # the page's text
    for report in run.session:
        assert f"aiperf [{report.execution_count}]" in visible, f"{name}: no header for cell {report.execution_count}"
        for finding in report.findings:
            if report.verdict is not None and finding.code == report.verdict.code:
                continue  # the verdict is stated once, in the header, not again as a finding
            if not finding.shown:  # hidden for a stated reason: named in the note, no card
                assert re.search(rf"hidden \([^)]*{finding.code}", visible), f"{name}: hidden {finding.code} not noted"
                continue
            assert finding.message.replace("`", "") in visible, f"{name}: finding {finding.code} not shown"
            if finding.fix is not None and finding.fix.diff:
                changed = next(line for line in finding.fix.diff.splitlines()
                               if line[:1] in "+-" and not line.startswith(("+++", "---")))
                assert changed in visible, f"{name}: the diff of {finding.code} is not shown"
