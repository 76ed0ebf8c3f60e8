"""Rules as data: a code, a name, a message, whether a fix exists, a matcher, and its documentation.

A rule is a function over :class:`~.facts.Facts` that yields the nodes it flags (optionally with a
message naming the detail), decorated with :func:`rule`. Its docstring is its documentation, in
Ruff's headings; it is the single source for ``%aiperf explain``, ``docs/rules.md`` and the CLI.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    import libcst as cst

    from .facts import Facts

Hit = Union["cst.CSTNode", tuple["cst.CSTNode", str]]
Matcher = Callable[["Facts"], Iterable[Hit]]

HEADINGS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References")
_HEADING = re.compile(r"^## (.+?)\s*$", re.M)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case, stable: ``dataloader-without-workers``
    message: str  # default finding message; a matcher may yield a more specific one
    fixable: bool
    doc: str  # Markdown with the headings in HEADINGS
    check: Matcher | None = None  # None for runtime-only rules (filled by a profiler)
    sections: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def runtime(self) -> bool:
        return self.check is None

    @property
    def summary(self) -> str:
        """The first sentence of "What it does"."""
        text = " ".join(self.sections.get("What it does", "").split())
        return text.split(". ")[0].rstrip(".") + "." if text else self.message


RULES: dict[str, Rule] = {}


def parse_sections(doc: str) -> dict[str, str]:
    parts = _HEADING.split(doc)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def rule(
    code: str, name: str, message: str, *, fixable: bool = False, runtime: bool = False
) -> Callable[[Matcher], Matcher]:
    """Register the decorated matcher as rule ``code``; its docstring is the rule's documentation."""

    def register(fn: Matcher) -> Matcher:
        if code in RULES:
            raise ValueError(f"rule code {code} registered twice")
        doc = inspect.cleandoc(fn.__doc__ or "")
        RULES[code] = Rule(code, name, message, fixable, doc, None if runtime else fn, parse_sections(doc))
        return fn

    return register


def all_rules() -> dict[str, Rule]:
    """Every rule, by code, in code order."""
    if not _SORTED:
        from . import detectors as rules  # noqa: F401  (importing the package registers every rule)

        _SORTED.update(sorted(RULES.items()))
    return _SORTED


_SORTED: dict[str, Rule] = {}


def selected(select: Iterable[str] | str | None, ignore: Iterable[str] | str | None) -> list[Rule]:
    """Rules whose code starts with a ``select`` prefix (all when None) and with no ``ignore`` prefix."""
    sel, ign = split_codes(select), split_codes(ignore)
    return [
        r
        for code, r in all_rules().items()
        if (sel is None or code.startswith(sel)) and not (ign and code.startswith(ign))
    ]


def code_selected(code: str, select: Iterable[str] | str | None, ignore: Iterable[str] | str | None) -> bool:
    sel, ign = split_codes(select), split_codes(ignore)
    return (sel is None or code.startswith(sel)) and not (ign and code.startswith(ign))


def split_codes(value: Iterable[str] | str | None) -> tuple[str, ...] | None:
    """``"AIP1, AIP301"`` or ``["AIP1", "AIP301"]`` -> ``("AIP1", "AIP301")``; None stays None."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    return tuple(p.strip().upper() for item in items for p in re.split(r"[,\s]+", item) if p.strip())
