"""The panel's Try and Apply of a rewrite of a function an earlier cell defined: Try rebinds the rewritten
function and runs the measured cell; Apply asks the notebook to replace the earlier cell (found above
the measured one by the text it ran with), Undo puts that text back, and an extension that cannot
edit another cell says which cell to edit by hand."""

from __future__ import annotations

from typing import Any

from aiperf_magic.apply.bridge import Reply
from aiperf_magic.render.panel.view import build_panel
from aiperf_magic.report import Comparison, Finding, Fix, Report

EARLIER = ("import numpy as np\n\ndef f(v):\n    out = np.empty(len(v))\n"
           "    for i in range(len(v)):\n        out[i] = v[i] * 2\n    return out\n")
REWRITTEN = ("import numpy as np\n\ndef f(v):\n    out = np.empty(len(v))\n"
             "    out[:len(v)] = np.asarray(v) * 2\n    return out\n")
DEFINITION = "def f(v):\n    out = np.empty(len(v))\n    out[:len(v)] = np.asarray(v) * 2\n    return out\n"
CELL = "y = f(x)\n"


class Bridge:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def request(self, op: str, cell_id: Any, source: Any, expect: str, on_done: Any, **more: Any) -> None:
        self.requests.append(
            {"op": op, "cell_id": cell_id, "source": source, "expect": expect, "done": on_done, **more}
        )

    def answer(self, reply: Reply) -> None:
        self.requests[-1]["done"](reply)


def report() -> Report:
    fix = Fix(title="Compute with one NumPy expression", source=CELL, diff="-a\n+b\n", cell="cell [3]",
              cell_source=REWRITTEN, rebind=DEFINITION, cell_ran=EARLIER)
    finding = Finding(code="AIP201", message="Lines 5-6 of f (cell [3]) took 90 %", line=1, fix=fix, fixable=True)
    return Report(source=CELL, cell_id="measured", magic_line="%%aiperf", wall_s=1.0, cpu_s=1.0, findings=[finding])


def ui(panel: Any) -> dict[str, Any]:
    return panel.view.ui["fixes"]["1"]  # type: ignore[no-any-return]


def test_try_rebinds_the_function_and_apply_edits_the_cell_that_defines_it(monkeypatch: Any) -> None:
    import aiperf_magic.verification as verification
    from aiperf_magic.render.panel.actions import PanelContext

    seen: list[dict[str, Any]] = []

    def verify(before: str, after: str, namespace: dict[str, Any], **options: Any) -> Comparison:
        seen.append({"before": before, "after": after, **options})
        return Comparison(equal=True, speedup=50.0, faster=True, before_s=1.0, after_s=0.02, repeat=5)

    monkeypatch.setattr(verification, "verify", verify)  # what the panel's own verify calls
    monkeypatch.setattr(PanelContext, "tries_in_background", lambda self: False)
    bridge = Bridge()
    panel = build_panel(report(), bridge=bridge, namespace={})  # type: ignore[arg-type]
    panel.handle({"do": "try", "key": "1"})
    assert seen and seen[0]["before"] == seen[0]["after"] == CELL and seen[0]["rebind"] == DEFINITION
    assert ui(panel)["apply"]  # equal: Apply is on
    panel.handle({"do": "apply", "key": "1"})
    req = bridge.requests[0]
    assert (req["op"], req["cell_id"], req["source"], req["expect"]) == (
        "replace_above", "measured", REWRITTEN, "%%aiperf\n" + CELL)
    assert req["above"] == EARLIER and req["above_name"] == "cell [3]"
    bridge.answer(Reply(ok=True, new_cell_id="defining"))
    assert ui(panel)["status"][0] == "ok" and "Applied to cell [3]" in ui(panel)["status"][1]
    panel.handle({"do": "rerun"})  # the cell calls the old function until cell [3] runs again
    assert panel.view.ui["stale"]["text"].startswith("Run cell [3] again")
    assert len(bridge.requests) == 1
    panel.handle({"do": "undo", "key": "1"})
    undo = bridge.requests[1]
    assert (undo["op"], undo["cell_id"], undo["source"], undo["expect"]) == ("undo", "defining", EARLIER, REWRITTEN)


def test_an_older_extension_says_which_cell_to_edit_by_hand() -> None:
    bridge = Bridge()
    panel = build_panel(report(), bridge=bridge, namespace={})  # type: ignore[arg-type]
    panel.actions["1"].edit.allowed = True
    panel.handle({"do": "apply", "key": "1"})
    bridge.answer(Reply(ok=False, reason='Unknown op "replace_above": expected replace, insert_below, undo or run.'))
    status = ui(panel)["status"]
    assert status[0] == "error" and "cannot edit cell [3]" in status[1] and "%aiperf apply 1" in status[1]


def test_apply_command_inserts_the_rewritten_definition_and_names_its_cell(capsys: Any) -> None:
    from aiperf_magic.ipython.commands.apply import apply_command
    from aiperf_magic.ipython.subcommands import CommandContext, SessionState

    class Shell:
        def __init__(self) -> None:
            self.user_ns: dict[str, Any] = {}
            self.next_inputs: list[tuple[str, bool]] = []

        def set_next_input(self, text: str, replace: bool = False) -> None:
            self.next_inputs.append((text, replace))

    shell = Shell()
    apply_command(CommandContext(shell, SessionState(last_report=report())), ["1"])
    assert shell.next_inputs == [(DEFINITION, False)]
    said = capsys.readouterr().out
    assert "rewritten definition" in said and "it replaces the one in cell [3]" in said


def test_the_views_name_the_cell_the_rewrite_goes_to() -> None:
    from aiperf_magic.render.html import render_html
    from aiperf_magic.render.panel.viewmodel import panel_data
    from aiperf_magic.render.text import render_text

    rep = report()
    assert "Fix in cell [3], which defines the function" in render_html(rep)
    text = render_text(rep)
    assert "[fix in cell [3]:" in text and "rewritten in cell [3]:" in text
    assert "out[:len(v)] = np.asarray(v) * 2" in text
    card = panel_data(rep)["findings"][0]["fix"]
    assert card["title"].endswith("(in cell [3], which defines the function)")
