"""The kernel bridge with a fake comm, a fake timer and fake parent headers."""

from __future__ import annotations

from typing import Any

import pytest
from IPython.core.error import UsageError

from aiperf_magic.apply.bridge import Bridge, Reply, parse_reply, ran_text
from aiperf_magic.apply.origin import Origin, Origins, origin_of
from aiperf_magic.ipython.commands.apply import apply_command
from aiperf_magic.ipython.subcommands import CommandContext, SessionState
from aiperf_magic.report import Finding, Fix, Report


class FakeComm:
    def __init__(self, target_name: str, data: dict[str, Any]) -> None:
        self.target_name = target_name
        self.data = data
        self.msg_cb: Any = None
        self.close_cb: Any = None
        self.closed = 0

    def on_msg(self, cb: Any) -> None:
        self.msg_cb = cb

    def on_close(self, cb: Any) -> None:
        self.close_cb = cb

    def close(self) -> None:
        self.closed += 1

    # what the front end does
    def reply(self, data: Any) -> None:
        self.msg_cb({"content": {"comm_id": "x", "data": data}})

    def close_from_frontend(self) -> None:
        self.close_cb({"content": {"comm_id": "x", "data": {}}})


class FakeTimer:
    def __init__(self, seconds: float, fn: Any) -> None:
        self.seconds, self.fn = seconds, fn
        self.started = self.cancelled = False

    def start(self) -> None:
        self.started = True

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        self.fn()


@pytest.fixture
def rig() -> Any:
    class Rig:
        def __init__(self) -> None:
            self.comms: list[FakeComm] = []
            self.timers: list[FakeTimer] = []
            self.replies: list[Reply] = []
            self.origins = Origins()
            self.asking: dict[str, Any] | None = None  # the message being answered (a click)
            self.bridge = Bridge(
                open_comm=self.open, timer=self.timer, timeout_s=3.0, origins=self.origins, parent=lambda: self.asking
            )

        def open(self, target_name: str, data: dict[str, Any]) -> FakeComm:
            comm = FakeComm(target_name, data)
            self.comms.append(comm)
            return comm

        def timer(self, seconds: float, fn: Any) -> FakeTimer:
            t = FakeTimer(seconds, fn)
            self.timers.append(t)
            return t

        def send(self, op: str = "replace", cell_id: str | None = "c1") -> None:
            self.bridge.request(op, cell_id, "%%aiperf\nnew\n", "%%aiperf\nold\n", self.replies.append)

    return Rig()


def test_request_opens_one_comm_with_the_fixed_fields(rig: Any) -> None:
    rig.send()
    (comm,) = rig.comms
    assert comm.target_name == "aiperf_magic"
    assert comm.data == {
        "op": "replace",
        "cell_id": "c1",
        "source": "%%aiperf\nnew\n",
        "expect": "%%aiperf\nold\n",
        "path": None,  # the kernel never saw this cell run: the extension then needs a unique cell id
        "session": None,
    }
    assert rig.timers[0].started and rig.timers[0].seconds == 3.0
    assert rig.replies == []  # asynchronous: nothing until the front end answers


def test_request_names_the_notebook_the_cell_ran_in(rig: Any) -> None:
    rig.origins.remember("c1", Origin("/home/ana/project/a.ipynb", "client-a"))
    rig.send()
    assert (rig.comms[0].data["path"], rig.comms[0].data["session"]) == ("/home/ana/project/a.ipynb", "client-a")


def test_a_cell_id_that_ran_in_two_notebooks_goes_to_the_one_clicked(rig: Any) -> None:
    rig.origins.remember("c1", Origin("/home/ana/project/a.ipynb", "client-a"))
    rig.origins.remember("c1", Origin("/home/ana/project/a.ipynb", "client-copy"))  # a copy, sharing the kernel
    rig.asking = {"header": {"session": "client-a"}}  # Apply clicked in the original's panel
    rig.send()
    rig.asking = {"header": {"session": "elsewhere"}}
    rig.send()
    assert [c.data["session"] for c in rig.comms] == ["client-a", "client-copy"]  # else: the latest run
    rig.bridge.request("replace", "c1", "x", "y", rig.replies.append, notebook=Origin("p", "given"))
    assert rig.comms[-1].data["session"] == "given"


def test_an_inserted_cell_is_remembered_in_the_notebook_it_was_inserted_in(rig: Any) -> None:
    rig.origins.remember("c1", Origin("/home/ana/project/a.ipynb", "client-a"))
    rig.send(op="insert_below")
    rig.comms[0].reply({"ok": True, "reason": "", "new_cell_id": "c9", "path": "a.ipynb"})
    assert rig.replies[0].path == "a.ipynb"
    rig.send(op="undo", cell_id="c9")
    assert (rig.comms[1].data["path"], rig.comms[1].data["session"]) == ("a.ipynb", "client-a")


def test_origin_of_an_execute_request() -> None:
    parent = {"header": {"session": "client-a", "msg_type": "execute_request"}, "metadata": {"cellId": "c1"}}
    assert origin_of(parent, {"JPY_SESSION_NAME": "/srv/nb.ipynb"}) == Origin("/srv/nb.ipynb", "client-a")
    assert origin_of(None, {}) == Origin(None, None)
    assert origin_of({"header": "odd"}, {}) == Origin(None, None)


def test_reply_ends_the_request_once(rig: Any) -> None:
    rig.send()
    comm = rig.comms[0]
    comm.reply({"ok": True, "reason": "", "new_cell_id": None})
    comm.close_from_frontend()  # the extension closes after replying: not a second answer
    rig.timers[0].fire()
    assert rig.replies == [Reply(ok=True)]
    assert rig.timers[0].cancelled and comm.closed == 1
    assert not rig.bridge.extension_missing


def test_refusal_keeps_the_reason(rig: Any) -> None:
    rig.send()
    rig.comms[0].reply({"ok": False, "reason": "The cell was edited", "new_cell_id": None})
    assert rig.replies == [Reply(False, "The cell was edited")]


def test_insert_below_reply_carries_the_new_cell(rig: Any) -> None:
    rig.send(op="insert_below")
    rig.comms[0].reply({"ok": True, "reason": "", "new_cell_id": "c2"})
    assert rig.replies[0].new_cell_id == "c2"


def test_comm_closed_on_open_means_no_extension(rig: Any) -> None:
    rig.send()
    rig.comms[0].close_from_frontend()
    (reply,) = rig.replies
    assert not reply.ok and reply.missing_extension and "%aiperf apply" in reply.reason
    assert rig.bridge.extension_missing


def test_no_reply_times_out_as_missing_extension(rig: Any) -> None:
    rig.send()
    rig.timers[0].fire()
    rig.comms[0].reply({"ok": True})  # too late: ignored
    assert [r.missing_extension for r in rig.replies] == [True]


def test_unknown_cell_id_never_opens_a_comm(rig: Any) -> None:
    rig.send(cell_id=None)
    assert rig.comms == [] and rig.replies[0].missing_extension


def test_bad_op_is_rejected(rig: Any) -> None:
    with pytest.raises(ValueError, match="op must be one of"):
        rig.send(op="delete")


@pytest.mark.parametrize("data", [None, "yes", {"reason": "x"}, {"ok": "true"}])
def test_malformed_replies_are_refusals(data: Any) -> None:
    reply = parse_reply(data)
    assert not reply.ok and "unexpected reply" in reply.reason


def _report() -> Report:
    fix = Fix(title="Use a column expression", source="df['c'] = df['a'] * 2\n", diff="-...\n+...\n")
    return Report(
        source="for i, row in df.iterrows():\n    pass\n",
        magic_line="%%aiperf --repeat 1",
        findings=[
            Finding(code="AIP101", message="no fix here", line=1),
            Finding(code="AIP301", message="Row loop", line=1, fix=fix, fixable=True),
        ],
    )


def test_ran_text_keeps_the_magic_line_and_body() -> None:
    assert ran_text(_report()) == "%%aiperf --repeat 1\nfor i, row in df.iterrows():\n    pass\n"


class FakeShell:
    def __init__(self) -> None:
        self.next_inputs: list[tuple[str, bool]] = []
        self.user_ns: dict[str, Any] = {}

    def set_next_input(self, text: str, replace: bool = False) -> None:
        self.next_inputs.append((text, replace))


@pytest.mark.parametrize("token", ["2", "AIP301", "aip301", "AIP301:2"])
def test_apply_command_inserts_the_fix_below(token: str, capsys: Any) -> None:
    shell = FakeShell()
    apply_command(CommandContext(shell, SessionState(last_report=_report())), [token])
    assert shell.next_inputs == [("%%aiperf --repeat 1\ndf['c'] = df['a'] * 2\n", False)]
    assert "finding 2 (AIP301" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "usage: %aiperf apply N"),
        (["3"], "There is no finding 3"),
        (["0"], "There is no finding 0"),
        (["AIP999"], "no AIP999 finding"),
        (["AIP301:9"], "no AIP301 finding on line 9"),
        (["AIP3x"], "is not a finding"),
        (["1"], "has no rewrite"),
    ],
)
def test_apply_command_bad_input_changes_nothing(argv: list[str], message: str, capsys: Any) -> None:
    shell = FakeShell()
    with pytest.raises(UsageError, match=message):
        apply_command(CommandContext(shell, SessionState(last_report=_report())), argv)
    assert shell.next_inputs == []


def test_apply_command_before_any_report(capsys: Any) -> None:
    shell = FakeShell()
    with pytest.raises(UsageError, match="No %%aiperf cell has run yet"):
        apply_command(CommandContext(shell, SessionState()), ["1"])
    assert shell.next_inputs == []


def test_apply_after_try_says_what_the_try_proved(ip: Any) -> None:
    from IPython.utils.capture import capture_output

    ip.run_cell("import pandas as pd\nframe = pd.DataFrame({'a': range(3000), 'b': range(3000)})")
    with capture_output() as out:
        # the loop variable is not `_`: a cell that assigns `_` stops IPython from updating it later
        ip.run_cell("%%aiperf\ntotal = 0\nfor idx, row in frame.iterrows():\n    total += row['a'] * row['b']\n")
        ip.run_cell("%aiperf apply AIP301")
        ip.run_cell("%aiperf try AIP301 --repeat 1")
        ip.run_cell("%aiperf apply AIP301")
    first, second = [line for line in out.stdout.splitlines() if line.startswith("Inserted the rewrite")]
    assert "not checked for equal results" in first
    assert "Its try gave equal results" in second
