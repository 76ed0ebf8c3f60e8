"""aiperf_magic: a performance doctor for notebook AI and data code.

``%load_ext aiperf_magic`` then ``%%aiperf`` on a slow cell. Public names are loaded lazily so
that loading the extension stays fast and never imports pandas or torch.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# public name -> (module, attribute); resolved on first use
_LAZY = {
    "Report": ("aiperf_magic.report", "Report"),
    "Finding": ("aiperf_magic.report", "Finding"),
    "Fix": ("aiperf_magic.report", "Fix"),
    "Comparison": ("aiperf_magic.report", "Comparison"),
    "analyze": ("aiperf_magic.rules", "analyze"),
    "fix": ("aiperf_magic.rules.fixing", "fix"),
    "verify": ("aiperf_magic.verification", "verify"),
}

__all__ = ["__version__", "load_ipython_extension", "unload_ipython_extension", *_LAZY]


def __getattr__(name: str) -> Any:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'aiperf_magic' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value


def load_ipython_extension(ipython: Any) -> None:
    """Called by ``%load_ext aiperf_magic``; loading twice is harmless."""
    from .ipython.extension import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """Called by ``%unload_ext aiperf_magic``: removes the magics and stops anything running."""
    from .ipython.extension import unload

    unload(ipython)


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "aiperf-magic"}]
