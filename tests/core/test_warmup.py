"""The analysis loads in the background after ``%load_ext``; a measured cell started before it is done
waits for it. Each case runs in a fresh Python process: the warm-up happens once per process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_load_ext_returns_before_the_analysis_is_loaded_and_loads_it_in_the_background():
    got = fresh("""
        import json, sys, time
        from IPython.testing.globalipapp import get_ipython
        ip = get_ipython()
        ip.run_line_magic("load_ext", "aiperf_magic")
        loaded_at_once = "libcst" in sys.modules
        from aiperf_magic.measure import warmup
        warmup.wait()
        print(json.dumps({"at_once": loaded_at_once, "after": "libcst" in sys.modules,
                          "rules": "aiperf_magic.rules.stage" in sys.modules, "seconds": warmup.seconds()}))
    """)
    assert got["at_once"] is False and got["after"] is True and got["rules"] is True
    assert got["seconds"] is not None


def test_a_measured_cell_started_during_the_warm_up_waits_for_it():
    got = fresh("""
        import json, sys, threading, time
        from aiperf_magic.measure import warmup
        from aiperf_magic.measure.stages import stage_classes
        order = []
        def slow_step():
            time.sleep(0.6)
            order.append("warm-up done")
        warmup.start(stage_classes, slow_step)
        assert not warmup.start(slow_step)  # once per process
        from IPython.testing.globalipapp import get_ipython
        ip = get_ipython()
        ip.run_line_magic("load_ext", "aiperf_magic")
        from IPython.utils.capture import capture_output
        with capture_output():
            ip.run_cell("%%aiperf --text --var r\\nx = 1\\n")
        order.append("cell measured")
        r = ip.user_ns["r"]
        print(json.dumps({"order": order, "wall": r.wall_s, "warm": [t.name for t in threading.enumerate()
                                                                      if t.name == "aiperf-warm-up"]}))
    """)
    assert got["order"] == ["warm-up done", "cell measured"]
    assert got["wall"] < 0.3  # the 0.6 s wait came before the cell's clocks started: not in its time
    assert got["warm"] == []


def test_a_failing_warm_up_is_silent_and_the_cell_still_runs():
    got = fresh("""
        import json
        from aiperf_magic.measure import warmup
        def broken():
            raise ImportError("no such module here")
        warmup.start(broken)
        warmup.wait()
        from IPython.testing.globalipapp import get_ipython
        from IPython.utils.capture import capture_output
        ip = get_ipython()
        ip.run_line_magic("load_ext", "aiperf_magic")
        with capture_output():
            ip.run_cell("%%aiperf --text --var r\\nx = 1\\n")
        print(json.dumps({"report": ip.user_ns.get("r") is not None}))
    """)
    assert got["report"] is True
