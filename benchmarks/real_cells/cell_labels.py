"""The labelled cells: reading ``cells/*.py`` and ``index.json``, and the fixed split into halves.

A cell file holds a header (a docstring of ``key: value`` lines, indented lines continuing the
value) and three sections: ``# %% setup`` (run first, unmeasured: the notebook's earlier cells),
``# %% cell`` (the measured cell) and an optional ``# %% teardown``. Labels sit at the end of the
cell's lines as comments, and are stripped before the cell runs (line numbers are kept):

    df.loc[i, "x"] = v  # expect: AIP301          a trap: this code is expected on this line
    ...                 # expect: AIP201|AIP301   either code names it
    ...                 # expect: AIP201/sum      the same code twice in one cell: tell traps apart
    ...                 # expect: *               a trap no code of the catalog names: any code here
    ...                 # expect[cuda]: AIP102    a trap only where CUDA is present
    ...                 # ok: AIP303              true and acceptable here, but not required

Markers with the same code list and id, on several lines, are one trap that may be shown on any of
them: the line that costs (a loop, its hot body line, the call into a helper from an earlier cell)
and, when the cell holds it, the line a fix would change (the ``DataLoader(...)``, the thread
pool). ``ok: AIP303`` marks a line that makes or changes a frame of 10 MB or more (pandas'
``memory_usage(deep=True)``) whose dtypes are wider than its values need: true there, not required.

Header keys: ``source``, ``family``, ``kind`` (slow or healthy), ``verdict`` (accepted verdict
codes joined by ``|``, ``none`` for no verdict), ``rewrite``, ``size``, ``scaled``, ``kernel``
(data or torch), and optionally ``cpu`` (what a machine without CUDA can show) and ``unsure``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CELLS = HERE / "cells"
INDEX = HERE / "index.json"
REQUIRED = ("source", "family", "kind", "verdict", "rewrite", "size", "scaled", "kernel")
KINDS = ("slow", "healthy")
KERNELS = ("data", "torch")
# A: tune on it; B: held out at first, tuned on after its second report; C: a second held-out half,
# written after A and B had been looked at; D: a third, written when B moved to tuning, tuned on after
# its first report; E: a fourth, written when D moved to tuning, tuned on after its first report;
# F: a fifth, written when E moved to tuning, tuned on after its first report; G: a sixth, written
# when F moved to tuning, tuned on after its first report; H: a seventh, written when G moved to tuning,
# tuned on after its first report; I: an eighth, written when H moved to tuning, tuned on after its first report;
# J: a ninth, written when I moved to tuning, tuned on after its first report; K: a tenth, written when J
# moved to tuning
HALVES = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K")
_SECTION = re.compile(r"^# %% (setup|cell|teardown)\s*$", re.MULTILINE)
_MARKER = re.compile(r"\s+#\s*(expect(?:\[cuda\])?|ok):\s*(.*)$")
_KEYWORD = re.compile(r"\s+(expect(?:\[cuda\])?|ok):\s*")
_CODE = re.compile(r"^(\*|AIP\d{3}(?:\|AIP\d{3})*)(?:/(\w+))?$")


@dataclass(frozen=True)
class Trap:
    """One expected finding: the codes that name it and the lines (of the cell body) it may sit on."""

    codes: tuple[str, ...]  # ("*",) accepts any code
    lines: tuple[int, ...]
    tag: str = ""
    cuda: bool = False  # exists only where CUDA is present

    def accepts(self, code: str, line: int | None) -> bool:
        return line in self.lines and ("*" in self.codes or code in self.codes)

    def label(self) -> str:
        where = ",".join(map(str, self.lines))
        return f"{'|'.join(self.codes)}@{where}" + (" (CUDA only)" if self.cuda else "")


@dataclass
class Cell:
    name: str
    header: dict[str, str]
    setup: str
    source: str  # the measured cell, labels stripped
    teardown: str
    traps: list[Trap] = field(default_factory=list)
    ok: list[tuple[str, int]] = field(default_factory=list)  # (code, line) accepted but not required

    @property
    def kind(self) -> str:
        return self.header["kind"]

    @property
    def family(self) -> str:
        return self.header["family"]

    @property
    def kernel(self) -> str:
        return self.header["kernel"]

    @property
    def verdicts(self) -> tuple[str, ...]:
        return tuple(v.strip() for v in self.header["verdict"].split("|"))

    @property
    def unsure(self) -> str:
        return self.header.get("unsure", "")


def parse_header(text: str) -> dict[str, str]:
    """``key: value`` lines of the docstring; indented lines continue the previous value."""
    header: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        match = re.match(r"^([a-z]+):\s*(.*)$", line)
        if match:
            key = match.group(1)
            header[key] = match.group(2).strip()
        elif key and line.startswith(" ") and line.strip():
            header[key] += " " + line.strip()
        elif not line.strip():
            key = None
    return header


def parse_markers(source: str) -> tuple[str, list[Trap], list[tuple[str, int]]]:
    """The cell without its label comments, its traps and its accepted (code, line) pairs."""
    kept: list[str] = []
    sites: dict[tuple[tuple[str, ...], str, bool], list[int]] = {}
    ok: list[tuple[str, int]] = []
    for number, line in enumerate(source.splitlines(), 1):
        match = _MARKER.search(line)
        if match is None:
            kept.append(line)
            continue
        kept.append(line[: match.start()])
        parts = _KEYWORD.split(" " + line[match.start():].split("#", 1)[1])
        for keyword, specs in zip(parts[1::2], parts[2::2], strict=True):
            for spec in specs.split():
                found = _CODE.match(spec)
                if found is None:
                    raise ValueError(f"line {number}: cannot read the label {spec!r}")
                codes = tuple(found.group(1).split("|"))
                if keyword == "ok":
                    ok.extend((code, number) for code in codes)
                else:
                    sites.setdefault((codes, found.group(2) or "", keyword != "expect"), []).append(number)
    traps = [Trap(codes, tuple(lines), tag, cuda) for (codes, tag, cuda), lines in sites.items()]
    return "\n".join(kept) + "\n", traps, ok


def read_cell(path: Path) -> Cell:
    text = path.read_text(encoding="utf-8")
    doc = re.search(r'"""(.*?)"""', text, re.DOTALL)
    if doc is None:
        raise ValueError(f"{path.name}: no header docstring")
    header = parse_header(doc.group(1))
    missing = [k for k in REQUIRED if k not in header]
    if missing:
        raise ValueError(f"{path.name}: header lacks {', '.join(missing)}")
    if header["kind"] not in KINDS or header["kernel"] not in KERNELS:
        raise ValueError(f"{path.name}: kind must be one of {KINDS}, kernel one of {KERNELS}")
    sections = dict(_sections(text[doc.end():]))
    if "cell" not in sections:
        raise ValueError(f"{path.name}: no '# %% cell' section")
    source, traps, ok = parse_markers(sections["cell"])
    if header["kind"] == "slow" and not traps:
        raise ValueError(f"{path.name}: a slow cell needs at least one '# expect:' label")
    return Cell(path.stem, header, sections.get("setup", ""), source, sections.get("teardown", ""), traps, ok)


def _sections(text: str) -> list[tuple[str, str]]:
    marks = list(_SECTION.finditer(text))
    return [(m.group(1), text[m.end():(marks[i + 1].start() if i + 1 < len(marks) else len(text))].strip("\n") + "\n")
            for i, m in enumerate(marks)]


def load_cells() -> list[Cell]:
    return [read_cell(p) for p in sorted(CELLS.glob("*.py"))]


def split_halves(cells: list[Cell]) -> dict[str, str]:
    """The split rule, applied once when the index was written: within each (family, kind) group,
    cells ordered by the SHA-256 of their name alternate between A and B, starting with the half
    the group's own hash picks (so odd groups do not all favour A)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for cell in cells:
        groups.setdefault((cell.family, cell.kind), []).append(cell.name)
    halves = {}
    for (family, kind), names in sorted(groups.items()):
        first = 0 if _digest(f"{family}/{kind}")[0] % 2 == 0 else 1
        for i, name in enumerate(sorted(names, key=_digest)):
            halves[name] = "AB"[(i + first) % 2]
    return halves


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def load_index() -> dict[str, dict[str, str]]:
    return {entry["name"]: entry for entry in json.loads(INDEX.read_text(encoding="utf-8"))["cells"]}


def held_out_halves() -> tuple[str, ...]:
    """The halves nobody tunes on, as index.json records them (B was held out until it moved to tuning)."""
    return tuple(json.loads(INDEX.read_text(encoding="utf-8")).get("held_out", ("B", "C")))


def check_index(cells: list[Cell], index: dict[str, dict[str, str]]) -> list[str]:
    """What disagrees between the cell files and the frozen index (nothing, when all is well)."""
    problems = []
    names = {c.name for c in cells}
    for name in sorted(set(index) - names):
        problems.append(f"{name}: in index.json but no cells/{name}.py")
    for cell in cells:
        entry = index.get(cell.name)
        if entry is None:
            problems.append(f"{cell.name}: not in index.json (add it with the half the split rule gives)")
        elif (entry.get("family"), entry.get("kind")) != (cell.family, cell.kind):
            problems.append(f"{cell.name}: index.json says {entry.get('family')}/{entry.get('kind')}, "
                            f"the file {cell.family}/{cell.kind}")
        elif entry.get("half") not in HALVES:
            problems.append(f"{cell.name}: index.json half must be one of {', '.join(HALVES)}")
    return problems
