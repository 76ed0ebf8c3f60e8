"""Whether a widget can be shown: a running Jupyter kernel (imports no widget library)."""

from __future__ import annotations

import sys

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def can_render_widgets() -> bool:
    """True inside a running Jupyter kernel, where a front end may show widgets."""
    kernelbase = sys.modules.get("ipykernel.kernelbase")
    return bool(kernelbase is not None and kernelbase.Kernel.initialized())
