"""The panel's one widget: an anywidget whose state is the panel as JSON.

``data`` is the report's view (set once), ``ui`` what the buttons changed (Try's result, Apply's
status, "code changed"). The browser draws both with ``panel.js`` and sends the clicks back as
custom messages; nothing else is synced. One model per panel, plus the Layout model every DOM
widget has: panels can pile up in a long session without piling up models.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

HERE = Path(__file__).parent
SCRIPT = (HERE / "panel.js").read_text(encoding="utf-8")
STYLE = (HERE / "panel.css").read_text(encoding="utf-8")


class PanelWidget(anywidget.AnyWidget):  # type: ignore[misc]
    """The state of one aiperf panel; ``panel.js`` is its view."""

    # declared as traits of the class (not strings), so no instance adds traits of its own
    _esm = traitlets.Unicode(SCRIPT).tag(sync=True)
    _css = traitlets.Unicode(STYLE).tag(sync=True)
    data = traitlets.Dict().tag(sync=True)
    ui = traitlets.Dict().tag(sync=True)
