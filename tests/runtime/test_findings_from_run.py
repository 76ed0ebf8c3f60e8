"""Findings that start from the run, on real ``%%aiperf`` runs: the trap is reported on the line that
costs, with the run's numbers, whatever the code's syntax (shapes the static rules leave alone)."""

from __future__ import annotations

from typing import Any

import pytest

from aiperf_magic.report import Finding, Report

pytest.importorskip("numpy")
MAGIC = "%%aiperf --var rep --text --no-gpu\n"


def measured(ip: Any, setup: str, cell: str) -> Report:
    assert ip.run_cell(setup).success
    assert ip.run_cell(MAGIC + cell).success
    report = ip.user_ns["rep"]
    assert isinstance(report, Report)
    return report


def shown(report: Report, code: str) -> list[Finding]:
    return [f for f in report.findings if f.code == code and f.shown]


RECIPROCALS = """\
def compute_reciprocals(values):
    output = np.empty(len(values))
    for i in range(len(values)):
        output[i] = 1.0 / values[i]
    return output

result = compute_reciprocals(big)
"""
THREADS = """\
def squares(n, out):
    total = 0
    for i in range(n):
        total += i * i
    out.append(total)

results = []
workers = [threading.Thread(target=squares, args=(8_000_000, results)) for _ in range(3)]
[w.start() for w in workers]
[w.join() for w in workers]
"""


def test_a_loop_whose_bounds_are_a_parameter_is_found_from_its_million_iterations(ip: Any) -> None:
    report = measured(ip, "import numpy as np\nbig = np.arange(1, 400_001)\n", RECIPROCALS)
    (found,) = shown(report, "AIP201")
    assert found.line == 3 and found.evidence["from_run"] and found.evidence["iterations"] == 400_000
    assert "Line 5 took" in found.message and "400,000 iterations" in found.message and "values" in found.message


def test_a_helper_from_an_earlier_cell_is_reported_on_the_line_that_calls_it(ip: Any) -> None:
    pd = pytest.importorskip("pandas")
    ip.user_ns["pd"] = pd
    report = measured(ip, (
        "frame = pd.DataFrame({'a': range(3_000), 'b': range(3_000)})\n"
        "def add_total(df):\n"
        "    out = df.copy()\n"
        "    for i in range(len(out)):\n"
        "        out.loc[i, 'total'] = out.iloc[i]['a'] + out.iloc[i]['b']\n"
        "    return out\n"), "x = 1\nframe = add_total(frame)\n")
    (found,) = shown(report, "AIP301")
    assert found.line == 2 and "of add_total" in found.message and "3,000 rows" in found.message
    # its rewrite is of the cell that defined add_total, knowing the frame the call handed it (int columns,
    # so the new column is cast to the float64 that .loc left); Try rebinds the function and runs this cell
    fix = found.fix
    assert fix is not None and found.fixable and fix.cell is not None
    assert fix.source == "x = 1\nframe = add_total(frame)\n"
    assert "out['total'] = (out['a'] + out['b']).astype(float)" in fix.rebind, fix.rebind
    from aiperf_magic.verification import verify

    ip.run_cell("frame = frame.drop(columns='total')")
    c = verify(fix.source, fix.source, ip.user_ns, rebind=fix.rebind, repeat=3)
    assert c.equal and c.speedup is not None and c.speedup > 3, (c.difference, c.error, c.speedup)


def test_membership_in_a_short_list_is_found_by_the_number_of_lookups(ip: Any) -> None:
    report = measured(ip, (
        "stop = [f'w{i}' for i in range(150)]\n"
        "tokens = [f'w{i % 400}' for i in range(150_000)]\n"), "kept = [t for t in tokens if t not in stop]\n")
    (found,) = shown(report, "AIP202")
    assert found.line == 1 and found.evidence["items"] == 150 and found.evidence["lookups"] == 150_000
    assert "150,000 times" in found.message


def test_pure_python_in_threads_is_found_on_the_threads_lines(ip: Any) -> None:
    report = measured(ip, "import threading\n", THREADS)
    found = shown(report, "AIP401")
    assert found and found[0].line in (3, 4) and "threads" in found[0].message


def test_a_healthy_vectorised_cell_gets_no_finding_from_the_run(ip: Any) -> None:
    report = measured(ip, "import numpy as np\nx = np.random.default_rng(0).random((1_500, 2))\n",
                      "d = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)\norder = np.argsort(d, axis=1)\n")
    assert [f for f in report.findings if f.shown and not f.code.startswith("AIP9")] == []


def test_a_failure_explaining_the_run_keeps_the_static_findings(ip: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import aiperf_magic.rules.stage as stage

    def broken(*args: Any, **kwargs: Any) -> list[Finding]:
        raise RuntimeError("no luck")

    monkeypatch.setattr(stage, "findings_from_run", broken)
    report = measured(ip, "import numpy as np\nxs = list(range(3_000))\n",
                      "arr = np.array([])\nfor x in xs:\n    arr = np.append(arr, x)\n")
    assert [f.code for f in report.findings if f.code == "AIP203"] == ["AIP203"]
    assert any("findings from the run failed: RuntimeError: no luck" in n for n in report.notes)
