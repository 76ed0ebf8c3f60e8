"""Which notebook a cell ran in, so that an edit goes to that notebook and no other.

A cell id alone is not enough: a copied notebook keeps its cells' ids, and two notebooks can share
one kernel. While a ``%%aiperf`` cell runs, the kernel learns two things from the execute request
and its own start:

- ``session``: the ``session`` field of the execute request's header, the id of the front end's
  connection to the kernel that ran the cell (JupyterLab's ``kernel.clientId``; each open
  notebook has its own);
- ``path``: the notebook the kernel was started for (``JPY_SESSION_NAME``, which Jupyter Server
  sets for every kernel it starts for a notebook; absolute, or relative to the server's root).

Every edit request names both (see ``docs/panel.md``). The origins are kept per cell id, most recent
last, in this kernel process only; a cell id that ran in two notebooks keeps both.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_CELLS = 2_000  # cell ids remembered (a long session forgets its oldest cells first)
MAX_PER_CELL = 8  # notebooks remembered for one cell id


@dataclass(frozen=True)
class Origin:
    """The notebook a cell ran in, as far as the kernel can tell; both fields may be None."""

    path: str | None = None
    session: str | None = None

    def fields(self) -> dict[str, str | None]:
        """The request fields that name the notebook."""
        return {"path": self.path, "session": self.session}


def parent_session(parent: Any) -> str | None:
    """The ``session`` of a Jupyter message's header (the front end's connection), if any."""
    try:
        session = (parent or {}).get("header", {}).get("session")
    except AttributeError:
        return None
    return session if isinstance(session, str) and session else None


def origin_of(parent: Any, environ: Any = os.environ) -> Origin:
    """The origin of the cell being executed, from its execute request's ``parent`` message."""
    path = environ.get("JPY_SESSION_NAME") or None
    return Origin(path=path, session=parent_session(parent))


class Origins:
    """Cell id -> the notebooks it ran in (most recent last)."""

    def __init__(self) -> None:
        self._cells: OrderedDict[str, list[Origin]] = OrderedDict()

    def remember(self, cell_id: str | None, origin: Origin) -> None:
        if not cell_id:
            return
        known = [o for o in self._cells.pop(cell_id, []) if o != origin]
        self._cells[cell_id] = [*known, origin][-MAX_PER_CELL:]
        while len(self._cells) > MAX_CELLS:
            self._cells.popitem(last=False)

    def lookup(self, cell_id: str | None, asking_session: str | None = None) -> Origin | None:
        """Where ``cell_id`` ran. When it ran in several notebooks, the one whose connection is
        asking (the Apply button was clicked in it) wins, else the most recent."""
        known = self._cells.get(cell_id or "")
        if not known:
            return None
        for origin in reversed(known):
            if asking_session is not None and origin.session == asking_session:
                return origin
        return known[-1]

    def clear(self) -> None:
        self._cells.clear()


ORIGINS = Origins()  # one per kernel process


def kernel_parent() -> Any:
    """The message the kernel is answering now (inside a button callback: the click's comm message)."""
    try:
        from ipykernel.kernelbase import Kernel

        if Kernel.initialized():
            return Kernel.instance().get_parent()
    except Exception:
        pass
    return None


ParentSource = Callable[[], Any]
