"""Loading and unloading the extension: the magics, the input transformer that lets IPython run a
``%%aiperf`` cell's body itself, the one cell hook, and how Reports display in this shell."""

from __future__ import annotations

from typing import Any

from ..cell.source import split_magic_cell
from ..measure import sampler_thread, warmup
from ..measure.stages import stage_classes
from .hook import CellHook
from .magic import AiperfMagics, parse_options


class _Transformer:
    """Input transformer: the ``%%aiperf`` line becomes blank, the body runs as the cell."""

    def __init__(self, magics: AiperfMagics) -> None:
        self.magics = magics
        self.has_side_effects = False

    def __call__(self, lines: list[str]) -> list[str]:
        if not lines:
            return lines
        split = split_magic_cell("".join(lines))
        if split is None or split[1].lstrip().startswith("%%"):
            return lines
        if parse_options(self.magics, split[0]) is None:
            return lines  # let the magic itself raise the usage error
        return ["\n", *lines[1:]]


def load(shell: Any) -> None:
    if getattr(shell, "_aiperf_magics", None) is not None:
        return  # loading twice is harmless
    magics = AiperfMagics(shell)
    shell.register_magics(magics)
    transformer = _Transformer(magics)
    shell.input_transformers_cleanup.append(transformer)
    hook = CellHook(shell, magics, light=lambda: _auto_mode(magics))
    hook.register()
    magics.hook = hook
    _register_views(shell)
    shell._aiperf_magics = magics
    shell._aiperf_transformer = transformer
    # the analysis and the views load in the background: the first %%aiperf need not pay for them
    warmup.start(stage_classes, _warm_views)


def unload(shell: Any) -> None:
    magics = getattr(shell, "_aiperf_magics", None)
    if magics is None:
        return
    if magics.active is not None:
        magics.active.cancel()
        magics.active = None
    if magics.hook is not None:
        magics.hook.unregister()
        magics.hook = None
    for extra in list(magics.state.extras.values()):
        close = getattr(extra, "close", None)
        if callable(close):
            close()  # auto mode's probes, bridge comms...
    magics.state.extras.clear()
    sampler_thread.close_shared()  # the cells' sampling thread, parked since the last cell
    transformer = getattr(shell, "_aiperf_transformer", None)
    if transformer in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.remove(transformer)
    for kind in ("line", "cell"):
        shell.magics_manager.magics[kind].pop("aiperf", None)
    shell._aiperf_magics = None
    shell._aiperf_transformer = None


def _warm_views() -> None:
    """What the first report's analysis and views load on first use: the parser's tables (a tiny cell
    analysed), the display module, and the panel inside a kernel."""
    from ..render.frontend import can_render_widgets
    from ..rules import analyze
    from . import display  # noqa: F401

    analyze("total = 0\nfor x in range(3):\n    total += x\n")
    if can_render_widgets():
        from ..render.panel import view  # noqa: F401


def _auto_mode(magics: AiperfMagics) -> Any:
    mode = magics.state.extras.get("auto")
    return mode if mode is not None and getattr(mode, "enabled", False) else None


def _register_views(shell: Any) -> None:
    """A Report or Comparison returned to the shell (``%%aiperf -o``, ``%aiperf try``) shows as text
    in a terminal and as HTML in a notebook. Registered here, so the Report imports no view."""
    from ..render.comparison import render_comparison_html, render_comparison_text
    from ..render.html import render_html
    from ..render.text import render_text
    from ..report import Comparison, Report

    formatters = getattr(getattr(shell, "display_formatter", None), "formatters", {})
    plain, html = formatters.get("text/plain"), formatters.get("text/html")
    if plain is not None:
        plain.for_type(Report, lambda obj, p, cycle: p.text("Report(...)" if cycle else render_text(obj)))
        plain.for_type(
            Comparison, lambda obj, p, cycle: p.text("Comparison(...)" if cycle else render_comparison_text(obj))
        )
    if html is not None:
        html.for_type(Report, render_html)
        html.for_type(Comparison, render_comparison_html)
