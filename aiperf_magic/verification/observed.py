"""What a run shows besides the names it binds: the displayed result, printed output, the exception.

Every run (forked or in-process) compiles the cell so that its last expression is kept, as IPython
would display it (not after a ``;``, not when it is None), and captures ``sys.stdout`` and
``sys.stderr`` in bounded memory (:class:`Capture`: the first 64 KiB and a hash of everything). The
exception a run raised is kept as its type and message. :func:`difference` compares two runs'
:class:`Observed`; :func:`settle`, once the timed runs are done, masks what the original itself
prints differently from one run to the next (times, addresses, progress), by comparing with a second
run of the original, and says what was masked and what is never compared.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import tokenize
from dataclasses import dataclass, field
from types import CodeType
from typing import TYPE_CHECKING, Any

from .compare import trim

if TYPE_CHECKING:
    from ..report import Comparison
    from .trial import Outcome

HEAD_CHARS = 64 * 1024
DISPLAY_SLOT = "__aiperf_displayed__"  # where the compiled cell leaves its last expression's value
DISPLAYED = "the displayed result"  # its name in what is compared (no identifier can clash with it)
PRINTED, RAISED = "printed output", "the exception"
CELL_FILE = "<cell>"  # the file name both versions' output shows for the cell
NOT_COMPARED = (
    "output written by native code straight to file descriptors 1 and 2 (C libraries, subprocesses)",
    "rich output sent with display() (only the cell's last expression, its displayed result, is compared)",
    "objects reached only through other modules' globals, files and the identity of shared objects",
    "printed durations (a number with a time unit, as %time, tqdm or print(f'took {t:.2f} s') write them): "
    "the rewrite is meant to change them",
)
NOTHING = (
    "nothing observable was compared: the cell binds no name the rewrite must keep, shows no result, prints "
    "nothing and raises nothing, so the rewrite is not called equal"
)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# a measured duration as people print it: "2.15 µs", "took 5s", "12.3it/s", "0:00:03" is a time too;
# micro as the micro sign (U+00B5) or the Greek mu (U+03BC) that IPython's %time prints
_DURATION = re.compile(
    r"\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?\s?(?:ns|µs|\u03bcs|us|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|it/s|s/it)\b"
    r"|\b\d+:\d\d(?::\d\d)?(?:\.\d+)?\b"
)
_TOKEN = re.compile(r"0x[0-9a-fA-F]+|\d+(?:[.,:]\d+)*(?:[eE][-+]?\d+)?|\w+|\s+|.", re.S)


def compile_cell(python: str, filename: str) -> CodeType:
    """The cell compiled to keep its displayed result in :data:`DISPLAY_SLOT` (line numbers unchanged)."""
    tree = ast.parse(python, filename, "exec")
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr) and not _quiet(python):
        target = ast.Name(id=DISPLAY_SLOT, ctx=ast.Store())
        tree.body[-1] = ast.copy_location(ast.Assign(targets=[target], value=last.value), last)
        ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)


def _quiet(python: str) -> bool:
    """IPython's rule: a cell whose last token (comments aside) is ``;`` displays nothing."""
    last = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(python).readline):
            if tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER, tokenize.DEDENT):
                last = tok
    except (tokenize.TokenError, SyntaxError):
        return False
    return last is not None and last.type == tokenize.OP and last.string == ";"


def take_display(ns: dict[str, Any]) -> None:
    """Move the run's displayed result under its compared name; None is not displayed."""
    value = ns.pop(DISPLAY_SLOT, None)
    ns.pop(DISPLAYED, None)
    if value is not None:
        ns[DISPLAYED] = value


class Capture(io.TextIOBase):
    """A text stream keeping the first 64 KiB written to it and a hash of all of it (bounded memory).

    Bytes written to its ``buffer`` (``sys.stdout.buffer.write``) count as their UTF-8 text.
    """

    encoding = "utf-8"
    errors = "strict"

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.chars = 0
        self.hash = hashlib.sha256()
        self.buffer = _Bytes(self)

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        n = len(s)
        s = _same_file(s)
        if self.kept < HEAD_CHARS:
            part = s[: HEAD_CHARS - self.kept]
            self.parts.append(part)
            self.kept += len(part)
        self.chars += len(s)
        self.hash.update(s.encode("utf-8", "surrogatepass"))
        return n

    def writable(self) -> bool:
        return True

    def printed(self) -> Printed:
        return Printed("".join(self.parts), self.chars, self.hash.hexdigest())


class _Bytes(io.RawIOBase):
    def __init__(self, text: Capture) -> None:
        self.text = text

    def write(self, b: Any) -> int:
        data = bytes(b)
        self.text.write(data.decode("utf-8", "replace"))
        return len(data)

    def writable(self) -> bool:
        return True


@dataclass
class Printed:
    head: str = ""  # the first 64 KiB
    chars: int = 0
    digest: str = hashlib.sha256().hexdigest()

    @property
    def complete(self) -> bool:
        return self.chars <= len(self.head)


@dataclass
class Observed:
    """What one run showed besides its names: plain data that travels back from a trial."""

    stdout: Printed = field(default_factory=Printed)
    stderr: Printed = field(default_factory=Printed)
    raised: str | None = None  # "ZeroDivisionError: division by zero"

    def labels(self) -> list[str]:
        """What of this (original) run counts as compared, beyond its names."""
        return ([PRINTED] if self.stdout.chars or self.stderr.chars else []) + ([RAISED] if self.raised else [])


def _same_file(text: str) -> str:
    """Both versions run as files of their own names; what they print names the cell either way."""
    if "<aiperf " in text:
        text = text.replace("<aiperf before>", CELL_FILE).replace("<aiperf after>", CELL_FILE)
    return text


def exception_text(exc: BaseException) -> str:
    text = _same_file(f"{type(exc).__qualname__}: {exc}".rstrip())
    return text.rstrip(":")


def same_exception(a: str | None, b: str | None) -> bool:
    """The same type and message; addresses (``0x7f…``) in the message do not count."""
    if a is None or b is None:
        return a is b
    return _ADDRESS.sub("0x…", a) == _ADDRESS.sub("0x…", b)


def exception_difference(before: Observed, after: Observed) -> str | None:
    if same_exception(before.raised, after.raised):
        return None
    return f"{RAISED}: the original raised {_said(before.raised)}, the rewrite raised {_said(after.raised)}"


def _said(raised: str | None) -> str:
    return trim(raised) if raised else "nothing"


def without_durations(text: str) -> str:
    return _DURATION.sub("<duration>", text)


def output_difference(before: Observed, after: Observed) -> str | None:
    """The first line of printed output that differs, named by stream and line; None when equal.

    Printed durations are not compared (the rewrite is meant to change them): ``took 5 s`` and ``took 0 s``
    read the same."""
    for stream in ("stdout", "stderr"):
        b, a = getattr(before, stream), getattr(after, stream)
        if b.digest == a.digest:
            continue
        if b.complete and a.complete and without_durations(b.head) == without_durations(a.head):
            continue
        if stream == "stderr" and b.complete and a.complete and _warnings_read(
                without_durations(b.head)) == _warnings_read(without_durations(a.head)):
            continue  # warnings compare by kind and message; a deprecated call's, which its fix removes, not at all
        label = f"{PRINTED} ({stream})"
        lb, la = b.head.splitlines(keepends=True), a.head.splitlines(keepends=True)
        for i, (x, y) in enumerate(zip(lb, la, strict=False)):
            if x != y:
                return f"{label}, line {i + 1}: {trim(repr(x))} became {trim(repr(y))}"
        n = min(len(lb), len(la))
        shorter = b if len(lb) == n else a
        if len(lb) != len(la) and shorter.complete:
            who, line = ("original", lb[n]) if len(lb) > n else ("rewrite", la[n])
            return f"{label}, line {n + 1}: only the {who} printed {trim(repr(line))}"
        return f"{label}: {b.chars} characters became {a.chars}, differing after the first {HEAD_CHARS // 1024} KiB"
    return None


# a warning as the warnings module prints it: "<file>:<line>: FutureWarning: <message>", then the
# source line it points at, indented by two spaces
_DEPRECATION = re.compile(r"^[^\n]*:\d+: (?:Future|Deprecation|PendingDeprecation)Warning: [^\n]*\n(?:  [^\n]*\n)?",
                          re.MULTILINE)
_WARNING = re.compile(r"^[^\n]*:\d+: (\w*Warning): ([^\n]*)\n(?:  [^\n]*\n)?", re.MULTILINE)


def _warnings_read(text: str) -> str:
    """Standard error as a reader takes its warnings: by kind and message, not by the file and line
    that issued them (a rewrite moves code; a library's deprecated wrapper issues from its own file),
    and without the deprecation warnings a fix of the deprecated call removes."""
    return _WARNING.sub(r"\1: \2\n", _DEPRECATION.sub("", text))


def masked(first: Observed, again: Observed, rewrite: Observed) -> str | None:
    """How the rewrite's output matches the original's once what varies between two runs of the
    original is masked: a sentence naming the masked lines, or None when it does not match."""
    notes = []
    for stream in ("stdout", "stderr"):
        f, g, r = getattr(first, stream), getattr(again, stream), getattr(rewrite, stream)
        if r.digest in (f.digest, g.digest) or output_difference(_only(first, stream), _only(rewrite, stream)) is None:
            continue
        if f.digest == g.digest or not (f.complete and g.complete and r.complete):
            return None  # the original printed the same twice: the rewrite's output is a difference
        lf, lg, lr = (p.head.splitlines() for p in (f, g, r))
        if not len(lf) == len(lg) == len(lr):
            return None
        for i, (x, y, z) in enumerate(zip(lf, lg, lr, strict=True)):
            if x == y:
                if z != x:
                    return None
            elif not _matches(x, y, z):
                return None
            else:
                notes.append(f"{stream} line {i + 1} ({trim(repr(x))} then {trim(repr(y))})")
    if not notes:
        return None
    more = f" and {len(notes) - 3} more" if len(notes) > 3 else ""
    why = "as it differs between two runs of the original"
    return f"masked in the printed output, {why}: " + "; ".join(notes[:3]) + more


def _only(observed: Observed, stream: str) -> Observed:
    """``observed`` with only ``stream`` kept (the other one empty), to compare one stream at a time."""
    return Observed(**{stream: getattr(observed, stream)})


def _matches(x: str, y: str, z: str) -> bool:
    """Line ``z`` of the rewrite against lines ``x`` and ``y`` of two runs of the original."""
    tx, ty, tz = (_TOKEN.findall(s) for s in (x, y, z))
    if len(tx) != len(ty):  # the line changes shape from run to run (a progress bar): masked whole
        return True
    if len(tz) != len(tx):
        return False
    return all(a == c or (a != b and _kind(a) == _kind(c)) for a, b, c in zip(tx, ty, tz, strict=True))


def _kind(token: str) -> str:
    return "number" if token[:1].isdigit() else ("space" if token.isspace() else "word")


def settle(result: Comparison, original: Outcome, rewrite: Outcome, again: Outcome | None) -> None:
    """After the timed runs: mask what the original prints differently each run, name what is never
    compared. ``again`` is the original's first timed run (None when there was none)."""
    result.not_compared += [n for n in NOT_COMPARED if n not in result.not_compared]
    obs = (original.observed, rewrite.observed, again.observed if again is not None else None)
    if rewrite.differs_in != PRINTED or result.equal or obs[0] is None or obs[1] is None or obs[2] is None:
        return
    sentence = masked(obs[0], obs[2], obs[1])
    if sentence is not None:
        result.equal, result.difference = True, None
        result.notes.append(sentence)


def summary(result: Comparison, tolerances: str) -> list[str]:
    """The notes saying what was compared (or that nothing was), for every Try that ran."""
    if result.timed_out and not result.compared:  # the runs never got as far as a comparison
        return ["nothing was compared: a run was stopped at its time limit before its values could be"]
    if not result.compared and not result.difference and not result.error:
        if NOTHING not in result.not_compared:
            result.not_compared.append(NOTHING)
        return ["printed output of the runs is captured for the comparison, not shown", "compared: " + NOTHING]
    return [
        "printed output of the runs is captured for the comparison (Python's stdout and stderr), not shown",
        f"compared: {', '.join(result.compared) or 'nothing'}; {tolerances}",
    ]
