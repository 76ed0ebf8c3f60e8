"""%aiperf try in a real notebook kernel (nbclient): the proof runs and the user's frame is untouched."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]

CELL = "for i, row in frame.iterrows():\n    frame.loc[i, 'b'] = row['a'] * 2\n"
# Until the detectors are merged into %%aiperf, the cell below adds the finding they report.
ENSURE_FINDING = (
    "from aiperf_magic.report import Finding\n"
    "_rep = get_ipython()._aiperf_magics.state.last_report\n"
    "if _rep.finding('AIP301') is None:\n"
    "    _rep.findings.append(Finding('AIP301', 'Row loop over a DataFrame', line=1, fixable=True))\n"
)


def test_try_in_a_kernel_shows_an_equal_faster_comparison() -> None:
    nb = nbformat.v4.new_notebook()
    sources = [
        "%load_ext aiperf_magic",
        # float: the row loop's .loc column is float64, and the rewrite's too
        "import pandas as pd\nframe = pd.DataFrame({'a': range(2000)}, dtype=float)\nkeep = id(frame)",
        "%%aiperf\n" + CELL,
        ENSURE_FINDING,
        "%aiperf try AIP301 --repeat 3",
        "print(id(frame) == keep, list(frame.columns))",
        "%aiperf fix --unsafe",
    ]
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    NotebookClient(nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(ROOT)}}).execute()
    tried = next(o for o in nb.cells[4].outputs if o.output_type == "execute_result")  # after the progress line
    assert "Results are equal" in tried.data["text/plain"] and "faster" in tried.data["text/plain"]
    assert 'class="aiperf-comparison"' in tried.data["text/html"]
    assert nb.cells[5].outputs[0].text.strip() == "True ['a', 'b']"  # the original cell ran once, not more
    fixed = nb.cells[6].outputs[0].data["text/plain"]
    assert "frame['b'] = frame['a'] * 2" in fixed and "--- diff ---" in fixed
