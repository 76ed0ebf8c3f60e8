"""The static scan auto mode runs on every cell: the rule engine, imported only when first needed.

The rule engine may be absent (an older install, or a build without libcst); auto mode then still
measures every cell and says once, in its notes, that it could not read the code.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from .report import Finding

# Where the rule engine's ``analyze(source, ...) -> list[Finding]`` may live, in order of preference.
_ENGINES = ("aiperf_magic.analysis", "aiperf_magic.analysis.engine", "aiperf_magic.analyze")
PARSE_ERROR = "AIP000"  # IPython itself reports a cell that does not parse


class StaticScan:
    """``scan(source, namespace)`` → findings; keeps what earlier cells imported and defined."""

    def __init__(self, analyze: Callable[..., list[Finding]] | None = None, context: Any = None) -> None:
        self._analyze = analyze
        self._context = context
        self._accepts: set[str] = set()
        self._loaded = analyze is not None
        self.note: str | None = None
        if analyze is not None:
            self._accepts = _keywords(analyze)

    @property
    def available(self) -> bool:
        self._load()
        return self._analyze is not None

    def __call__(self, source: str, namespace: Mapping[str, Any] | None = None) -> list[Finding]:
        self._load()
        if self._analyze is None:
            return []
        kwargs: dict[str, Any] = {}
        if "namespace" in self._accepts and namespace is not None:
            kwargs["namespace"] = namespace
        if "context" in self._accepts and self._context is not None:
            kwargs["context"] = self._context
        try:
            findings = self._analyze(source, **kwargs)
        except Exception as exc:  # a rule that trips on odd code must not cost the cell its record
            self.note = f"static scan failed on a cell: {type(exc).__name__}: {exc}"
            return []
        return [f for f in findings if f.code != PARSE_ERROR]

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        for name in _ENGINES:
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            analyze = getattr(module, "analyze", None)
            if callable(analyze):
                self._analyze = analyze
                self._accepts = _keywords(analyze)
                context_type = getattr(module, "Context", None) or getattr(
                    importlib.import_module(analyze.__module__), "Context", None)
                if context_type is not None and "context" in self._accepts:
                    self._context = context_type()
                return
        self.note = "static scan skipped: the rule engine is not installed (cells are still timed)"


def _keywords(func: Callable[..., Any]) -> set[str]:
    try:
        return set(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        return set()
