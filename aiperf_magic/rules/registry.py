"""The one registry of every code aiperf reports: rules (AIP1xx-AIP5xx), verdicts (AIP9xx), AIP000.

A rule is a function over :class:`~.facts.Facts` that yields the nodes it flags (optionally with a
message naming the detail), decorated with :func:`rule`. Its docstring is its documentation, in
Ruff's headings; it is the single source for ``%aiperf explain``, ``docs/rules.md`` and the CLI.
Its fixer, when it has one, sits beside it in the same module, registered with :func:`fixer_for`:
it receives the very node the detector flagged and returns edits, or a sentence saying why no
rewrite applies there. Codes found at run time (AIP303, the AIP9xx verdicts) register their
documentation with :func:`document`.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    import libcst as cst

    from ..cell.parsed import ParsedCell
    from ..fixes.edits import Edits
    from .facts import Facts

Hit = Union["cst.CSTNode", tuple["cst.CSTNode", str]]
Matcher = Callable[["Facts"], Iterable[Hit]]
# A fixer reads the cell, the node its detector flagged and the facts, and returns its edits or a
# sentence saying why it offers none.
Fixer = Callable[["ParsedCell", "cst.CSTNode", "Facts"], Union["Edits", str]]
KINDS = ("static", "runtime", "verdict", "parse")
# Modules that register the codes found at run time; imported by name on first use of the catalog,
# so that this package imports none of the layers above it.
DOC_PROVIDERS = ("aiperf_magic.rules.families", "aiperf_magic.verdicts.docs")

HEADINGS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References")
_HEADING = re.compile(r"^## (.+?)\s*$", re.M)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case, stable: ``dataloader-without-workers``
    message: str  # default finding message; a matcher may yield a more specific one
    doc: str  # Markdown with the headings in HEADINGS
    check: Matcher | None = None  # None for codes found at run time
    sections: dict[str, str] = field(default_factory=dict, compare=False)
    kind: str = "static"  # one of KINDS
    fixer: Fixer | None = field(default=None, compare=False)
    fix_title: str = ""  # names the rewrite for a user ("Replace the row loop with column expressions")

    @property
    def preview(self) -> bool:
        """A rule that reads code but has not earned a default place by its measured precision
        (:mod:`.precision`): run only when asked (``--preview``, ``select=["ALL"]``, its exact code)."""
        from .precision import is_default

        return self.kind == "static" and not is_default(self.code)

    @property
    def runtime_only(self) -> bool:
        """A rule that reads code but left the lint: measured wrong more often than right on code it
        was not tuned on (:mod:`.precision`). ``%%aiperf`` still runs it, as a preview rule (shown
        only when the run measured that it matters); ``aiperf lint`` runs it only when ``--select``
        names its exact code."""
        from .precision import is_runtime_only

        return self.kind == "static" and is_runtime_only(self.code)

    @property
    def status(self) -> str:
        """"default", "preview", "runtime only" (a static rule that left the lint) or, for codes
        found at run time, "runtime"."""
        if self.kind != "static":
            return "runtime" if self.runtime else "default"
        if self.runtime_only:
            return "runtime only"
        return "preview" if self.preview else "default"

    @property
    def fixable(self) -> bool:
        """The rule has a fixer (a given finding is fixable only when its rewrite was built)."""
        return self.fixer is not None

    @property
    def runtime(self) -> bool:
        """Found while the cell runs (a profiler or a verdict), not by reading the code."""
        return self.kind in ("runtime", "verdict")

    @property
    def summary(self) -> str:
        """The first sentence of "What it does"."""
        text = " ".join(self.sections.get("What it does", "").split())
        return text.split(". ")[0].rstrip(".") + "." if text else self.message


RULES: dict[str, Rule] = {}


def parse_sections(doc: str) -> dict[str, str]:
    parts = _HEADING.split(doc)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


_SORTED: dict[str, Rule] = {}


def rule(code: str, name: str, message: str) -> Callable[[Matcher], Matcher]:
    """Register the decorated matcher as rule ``code``; its docstring is the rule's documentation."""

    def register(fn: Matcher) -> Matcher:
        _add(Rule(code, name, message, inspect.cleandoc(fn.__doc__ or ""), fn, kind="static"))
        return fn

    return register


def document(code: str, name: str, message: str, doc: str, *, kind: str = "runtime") -> None:
    """Register a code that is not found by reading code (run time, verdicts, parse problems)."""
    _add(Rule(code, name, message, inspect.cleandoc(doc), None, kind=kind))


def fixer_for(code: str, title: str) -> Callable[[Fixer], Fixer]:
    """Register the decorated function as the fixer of ``code`` (registered just above it)."""

    def register(fn: Fixer) -> Fixer:
        if code not in RULES:
            raise ValueError(f"fixer for {code}, which is not registered (define the rule first)")
        if RULES[code].fixer is not None:
            raise ValueError(f"{code} has two fixers")
        RULES[code] = replace(RULES[code], fixer=fn, fix_title=title)
        _SORTED.clear()
        return fn

    return register


def _add(new: Rule) -> None:
    if new.code in RULES:
        raise ValueError(f"rule code {new.code} registered twice")
    if new.kind not in KINDS:
        raise ValueError(f"{new.code}: kind must be one of {KINDS}, not {new.kind!r}")
    RULES[new.code] = replace(new, sections=parse_sections(new.doc))
    _SORTED.clear()


def all_rules() -> dict[str, Rule]:
    """Every registered code, in code order: rules, run-time codes and verdicts."""
    if not _SORTED:
        for provider in DOC_PROVIDERS:
            importlib.import_module(provider)  # importing a provider registers its codes
        _SORTED.update(sorted(RULES.items()))
    return _SORTED


def static_rules() -> dict[str, Rule]:
    """The rules that read code (what ``analyze`` runs)."""
    return {code: r for code, r in all_rules().items() if r.check is not None}


def lint_codes(prefixes: tuple[str, ...] | None = None) -> list[str]:
    """Every code ``aiperf lint --preview`` runs (under ``prefixes``, when given): all but the
    runtime-only rules."""
    return [
        code for code, r in all_rules().items()
        if not r.runtime_only and (prefixes is None or ALL in prefixes or code.startswith(prefixes))
    ]



ALL = "ALL"  # in ``select``: every rule, preview rules included


def selected(
    select: Iterable[str] | str | None, ignore: Iterable[str] | str | None, *, preview: bool = False
) -> list[Rule]:
    """Rules whose code starts with a ``select`` prefix (the default rules when None) and with no
    ``ignore`` prefix.

    A preview rule runs when ``preview`` is true, when ``select`` holds ``"ALL"``, or when
    ``select`` names its exact code; a prefix (``"AIP5"``) or no selection runs the default ones.
    Runtime-only rules are preview rules here (``%%aiperf`` and the Python API run them); the
    linter leaves them out of ``--preview`` and ``ALL`` (:func:`lint_codes`).
    """
    sel, ign = split_codes(select), split_codes(ignore)  # once, not once a rule (every cell asks)
    return [r for r in all_rules().values() if _chosen_split(r, sel, ign, preview)]


def code_selected(
    code: str, select: Iterable[str] | str | None, ignore: Iterable[str] | str | None, *, preview: bool = False
) -> bool:
    found = all_rules().get(code)
    if found is not None:
        return _chosen(found, select, ignore, preview)
    sel, ign = split_codes(select), split_codes(ignore)
    chosen = sel is None or ALL in sel or code.startswith(sel)
    return chosen and not (ign and code.startswith(ign))


def _chosen(r: Rule, select: Iterable[str] | str | None, ignore: Iterable[str] | str | None, preview: bool) -> bool:
    return _chosen_split(r, split_codes(select), split_codes(ignore), preview)


def _chosen_split(r: Rule, sel: tuple[str, ...] | None, ign: tuple[str, ...] | None, preview: bool) -> bool:
    if ign and r.code.startswith(ign):
        return False
    if sel is None:
        return preview or not r.preview
    if ALL in sel:
        return True
    return r.code.startswith(sel) and (preview or not r.preview or r.code in sel)


def split_codes(value: Iterable[str] | str | None) -> tuple[str, ...] | None:
    """``"AIP1, AIP301"`` or ``["AIP1", "AIP301"]`` -> ``("AIP1", "AIP301")``; None stays None."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    return tuple(p.strip().upper() for item in items for p in re.split(r"[,\s]+", item) if p.strip())
