"""%%aiperf in IPython's own test shell: the cell behaves exactly as without the magic."""

from __future__ import annotations

import threading

import pytest
from IPython.utils.capture import capture_output

from aiperf_magic.measure.sampler import live_threads
from aiperf_magic.report import Report

SLOW_LOOP = """\
total = 0
for i in range(4_000_000):
    total += i % 7
import time
time.sleep(0.05)
"""


def shown(out) -> str:
    """Everything the user would read: printed text and the plain-text part of displays."""
    return out.stdout + "".join(o.data.get("text/plain", "") for o in out.outputs)


def last_report(ip) -> Report:
    return ip._aiperf_magics.state.last_report


def test_report_measures_and_hotspot_points_at_the_slow_line(ip):
    with capture_output() as out:
        result = ip.run_cell("%%aiperf --var rep\n" + SLOW_LOOP)
    assert result.success
    rep = ip.user_ns["rep"]
    assert isinstance(rep, Report) and rep is last_report(ip)
    assert rep.source == SLOW_LOOP
    assert rep.wall_s > 0.05 and rep.cpu_s > 0
    assert rep.peak_rss_bytes and rep.peak_rss_bytes > 1_000_000
    assert rep.rss_delta_bytes is not None
    assert len(rep.samples) >= 2
    top = rep.hotspots[0]
    assert top.line == 3, rep.hotspots  # "total += i % 7", line 3 of the body
    assert top.text == "total += i % 7"
    assert 0 < top.share <= 1
    assert ip.user_ns["total"] == sum(i % 7 for i in range(4_000_000))
    assert "aiperf" in shown(out) and "Hot lines" in shown(out)


def test_last_expression_is_displayed_and_becomes_underscore(ip):
    with capture_output() as out:
        ip.run_cell("%%aiperf\nx = 40\nx + 2\n")
    assert ip.user_ns["_"] == 42
    assert ip.user_ns["x"] == 40
    assert "42" in out.stdout


def test_ipython_syntax_in_the_body(ip):
    with capture_output() as out:
        result = ip.run_cell("%%aiperf\nfiles = !echo hello-from-shell\n%time y = 3\nlen(files)\n")
    assert result.success, result.error_in_exec
    assert ip.user_ns["files"] == ["hello-from-shell"]
    assert ip.user_ns["y"] == 3
    assert "Wall time" in out.stdout


def test_top_level_await(ip):
    result = ip.run_cell("%%aiperf\nimport asyncio\nawait asyncio.sleep(0.01)\nawaited = 'yes'\n")
    assert result.success, result.error_in_exec
    assert ip.user_ns["awaited"] == "yes"
    assert last_report(ip).wall_s >= 0.01


def test_exception_fails_the_cell_with_the_users_line_and_keeps_a_report(ip):
    with capture_output() as out:
        result = ip.run_cell("%%aiperf --var rep\na = 1\nb = a / 0\n")
    assert not result.success
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    # IPython's own traceback, at the user's line (line 3 of the cell as the user sees it)
    assert "ZeroDivisionError" in out.stdout
    assert "line 3" in out.stdout
    assert "aiperf_magic" not in out.stdout.split("ZeroDivisionError")[1].split("aiperf [")[0]
    rep = ip.user_ns["rep"]
    assert rep.error.type == "ZeroDivisionError"
    assert rep.error.line == 2  # body line
    assert ip.user_ns["a"] == 1


def test_keyboard_interrupt_stops_the_cell_the_same_way(ip):
    with capture_output():
        result = ip.run_cell("%%aiperf\nbefore = 1\nraise KeyboardInterrupt\nafter = 1\n")
    assert not result.success
    assert isinstance(result.error_in_exec, KeyboardInterrupt)
    assert "after" not in ip.user_ns
    assert last_report(ip).error.type == "KeyboardInterrupt"


def test_syntax_error_points_at_the_users_line_and_no_report(ip):
    ip._aiperf_magics.state.last_report = None
    with capture_output() as out:
        result = ip.run_cell("%%aiperf\nok = 1\nbad = (\n")
    assert not result.success
    assert isinstance(result.error_before_exec, SyntaxError)
    assert "line 3" in out.stdout
    assert last_report(ip) is None


def test_empty_cell_and_definitions_only(ip):
    with capture_output():
        assert ip.run_cell("%%aiperf\n").success
        assert ip.run_cell("%%aiperf\ndef f(x):\n    return x * 2\nclass C:\n    pass\n").success
    assert ip.user_ns["f"](2) == 4
    assert last_report(ip).hotspots == [] or all(h.line >= 1 for h in last_report(ip).hotspots)


def test_o_returns_the_report_as_the_result(ip):
    with capture_output():
        ip.run_cell("%%aiperf -o\nz = 5\n")
    assert isinstance(ip.user_ns["_"], Report)
    assert ip.user_ns["_"].source == "z = 5\n"


def test_text_option_publishes_plain_text_only(ip):
    with capture_output() as out:
        ip.run_cell("%%aiperf --text\nq = 1\n")
    bundles = [o.data for o in out.outputs]
    assert bundles and all("text/html" not in b for b in bundles)
    with capture_output() as out:
        ip.run_cell("%%aiperf\nq = 1\n")
    assert any("text/html" in o.data for o in out.outputs)


def test_options_are_applied(ip):
    with capture_output():
        ip.run_cell("%%aiperf --interval 5 --no-hotspots --no-gpu\nimport time\ntime.sleep(0.05)\n")
    rep = last_report(ip)
    assert rep.interval_ms == 5
    assert rep.samples.interval_s == 0.005
    assert rep.hotspots == []
    assert rep.gpus == [] and not rep.gpu_synced
    assert not any("GPU" in n for n in rep.notes)


@pytest.mark.parametrize("interval", ["-3", "0", "0.4", "10001", "inf", "nan", "1e400"])
def test_bad_options_give_a_usage_error_and_do_not_run_the_body(ip, interval):
    with capture_output() as out:
        result = ip.run_cell(f"%%aiperf --interval {interval}\nran = True\n")
    assert not result.success and type(result.error_before_exec or result.error_in_exec).__name__ == "UsageError"
    assert "ran" not in ip.user_ns
    assert "--interval must be between 0.5 and 10000 milliseconds" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr and not live_threads()


def test_help_shows_usage_with_examples(ip):
    doc = ip.find_cell_magic("aiperf").__doc__
    for text in ("--var", "--interval", "--no-hotspots", "--text", "--no-gpu", "-o", "Examples", "%%aiperf"):
        assert text in doc


def test_nested_aiperf_runs_the_body_once(ip):
    with capture_output():
        result = ip.run_cell("%%aiperf\n%%aiperf\ncounter = globals().get('counter', 0) + 1\n")
    assert result.success
    assert ip.user_ns["counter"] == 1


def test_threads_and_subprocesses_in_the_cell(ip):
    code = (
        "%%aiperf\nimport threading, subprocess, sys\n"
        "out = []\nts = [threading.Thread(target=out.append, args=(i,)) for i in range(4)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "proc = subprocess.run([sys.executable, '-c', 'print(7)'], capture_output=True, text=True)\n"
    )
    with capture_output():
        assert ip.run_cell(code).success
    assert sorted(ip.user_ns["out"]) == [0, 1, 2, 3]
    assert ip.user_ns["proc"].stdout.strip() == "7"


def test_load_twice_is_harmless_and_unload_removes_everything(ip):
    ip.run_line_magic("load_ext", "aiperf_magic")
    assert ip.events.callbacks["pre_run_cell"].count(ip._aiperf_magics.hook.pre_run_cell) == 1
    ip.run_line_magic("unload_ext", "aiperf_magic")
    assert "aiperf" not in ip.magics_manager.magics["cell"]
    assert not any(type(t).__name__ == "_Transformer" for t in ip.input_transformers_cleanup)
    with capture_output():
        result = ip.run_cell("%%aiperf\nx = 1\n")
    assert not result.success  # plain IPython: unknown cell magic
    ip.run_line_magic("load_ext", "aiperf_magic")


def test_unloading_during_a_run_stops_the_sampler(ip):
    with capture_output():
        result = ip.run_cell("%%aiperf\nimport time\ntime.sleep(0.03)\n%unload_ext aiperf_magic\nstill = 1\n")
    assert result.success
    assert ip.user_ns["still"] == 1
    assert not [t for t in threading.enumerate() if t.name.startswith("aiperf-")]
    ip.run_line_magic("load_ext", "aiperf_magic")


def test_line_magic_without_subcommand_is_a_usage_error(ip):
    with capture_output() as out:
        ip.run_cell("%aiperf")
        ip.run_cell("%aiperf nonsense")
    assert "needs a subcommand" in out.stdout + out.stderr
    assert "unknown subcommand" in out.stdout + out.stderr


def test_cell_magic_followed_by_another_cell_magic(ip):
    with capture_output() as out:
        result = ip.run_cell("%%aiperf\n%%capture captured\nprint('inside')\n")
    assert result.success
    assert ip.user_ns["captured"].stdout == "inside\n"
    assert last_report(ip) is not None
    assert "inside" not in out.stdout


def test_hotspot_names_the_callee_outside_the_cell(ip):
    code = ("%%aiperf\nimport textwrap\ntext = 'word ' * 2000\n"
            "for _ in range(200):\n    lines = textwrap.wrap(text, 30)\n")
    with capture_output():
        assert ip.run_cell(code).success
    top = last_report(ip).hotspots[0]
    assert top.line == 4
    assert top.callee is not None and "wrap" in top.callee


def test_hotspot_inside_a_function_defined_in_the_cell(ip):
    code = ("%%aiperf\ndef work(n):\n    acc = 0\n    for i in range(n):\n        acc += i * i\n"
            "    return acc\nresult = work(3_000_000)\n")
    with capture_output():
        assert ip.run_cell(code).success
    assert last_report(ip).hotspots[0].line == 4


def test_a_finding_message_names_no_other_line_than_where_it_is_shown(ip):
    long_line = "x = " + repr("a" * 60_000)
    with capture_output() as out:
        ip.run_cell(f"%%aiperf --text --var rep\n{long_line}\n")
    (finding,) = ip.user_ns["rep"].findings
    assert finding.code == "AIP000" and finding.line == 1  # line 1 of the body: line 2 of the cell
    shown_line = next(line for line in shown(out).splitlines() if "AIP000" in line)
    assert "AIP000 line 2: This line is too long" in shown_line and "Line 1" not in shown_line


def test_a_report_over_a_nested_cell_magic_carries_its_cells_number(ip, tmp_path):
    # %%aiperf over %%time or %%writefile runs through the magic function, not the cell hook
    for body in ("%%time\nx = 3", f"%%writefile {tmp_path / 'out.txt'}\nhello"):
        with capture_output():
            result = ip.run_cell("%%aiperf --var nested\n" + body, store_history=True)
        assert result.success
        assert ip.user_ns["nested"].execution_count == result.execution_count
    with capture_output():
        result = ip.run_cell("%%aiperf --var plain\nx = 4", store_history=True)
    assert ip.user_ns["plain"].execution_count == result.execution_count
