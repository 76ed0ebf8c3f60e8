"""What a Try's isolation covered, in words: one note for the Comparison, from what the trials reported."""

from __future__ import annotations

from ..report import Comparison

LAYERS = {  # in the order they are worth telling
    "seccomp": "a syscall filter (no connections, programs, signals to other processes, or writes through "
    "inherited descriptors, whatever code attempts them)",
    "landlock": "Landlock (file writes only inside the trial's temporary folder)",
    "descriptors": "inherited descriptors made private and read-only",
}


def sandbox_note(result: Comparison) -> str | None:
    """``enforced by the operating system: ...`` or ``isolation is partial: not covered: ...``."""
    if result.isolation == "process" and not result.sandbox and not result.uncovered:
        return None  # no trial reported (refused before running)
    parts = []
    enforced = [text for layer, text in LAYERS.items() if layer in result.sandbox]
    if enforced:
        parts.append("enforced by the operating system: " + "; ".join(enforced))
    if result.uncovered:
        parts.append("isolation is partial, not covered: " + "; ".join(result.uncovered))
    return ". ".join(parts) if parts else None
