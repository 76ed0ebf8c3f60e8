"""A blocking call inside coroutines that the cell runs together (AIP402 from the run).

``async def fetch(url): return requests.get(url).json()`` and ``await asyncio.gather(*[fetch(u) for u
in urls])``: gather starts every coroutine, but ``requests.get`` never hands control back to the event
loop, so each runs to its end before the next starts, and the requests go one after another. The run
gives the coroutine's line the cell's time, waiting in a network or sleep call (the sampler reads a
cell suspended at a top-level ``await`` through the event loop's frames); the code says that line is
in an ``async def`` whose coroutines the cell hands to ``gather``, ``create_task`` or
``ensure_future``.
"""

from __future__ import annotations

import libcst as cst

from ..evidence import loop_iterations
from .loading import WAIT_SHARE
from .run import Explained, Run
from .shapes import work_shares
from .sites import Site, counts

TOGETHER = frozenset({"asyncio.gather", "asyncio.create_task", "asyncio.ensure_future", "asyncio.wait",
                      "asyncio.as_completed"})
MIN_COROUTINES = 4  # fewer coroutines than this, run one after another, lose little
ADVICE = ("A blocking call inside a coroutine holds the event loop: the coroutines gathered run one after another. "
          "Await an async client (aiohttp, httpx.AsyncClient), or hand the call to a thread: "
          "await asyncio.to_thread(requests.get, url)")
FIX = "the call becomes await asyncio.to_thread(...) or an async client's: chosen and written by hand"


def blocking_coroutine(site: Site, run: Run) -> Explained | None:
    if site.code is not run.cell or not counts(site) or work_shares(site).get("wait", 0.0) < WAIT_SHARE:
        return None  # a blocking call: a socket, a sleep, a lock (the sampler sees it waiting there)
    func = _async_def(site)
    if func is None:
        return None
    n = _run_together(run, func.name.value)
    if n is None or n < MIN_COROUTINES:
        return None
    callee = site.callees().most_common(1)[0][0] if site.callees() else _call_text(site)
    evidence = (f"{run.took(site)} waiting in {callee} inside the coroutine {func.name.value}(); the cell ran "
                f"{n:,} of them together, yet the call never let the event loop switch, so they ran one after another")
    at = next((c.node for c in site.code.calls_on(site.hottest.line)), None)
    return Explained("AIP402", site, at, evidence, {"requests": n}, at=at, advice=ADVICE, fix_reason=FIX)


def _async_def(site: Site) -> cst.FunctionDef | None:
    """The ``async def`` of the cell that holds the site's hottest line."""
    for scope in site.code.facts.functions.values():
        func = scope.node
        span = site.code.span(func) if isinstance(func, cst.FunctionDef) else None
        if span is not None and func.asynchronous is not None and span[0] < site.hottest.line <= span[1]:
            return func  # type: ignore[return-value]
    return None


def _run_together(run: Run, name: str) -> int | None:
    """How many coroutines of ``name`` the cell hands to ``gather`` (and the like): the length of the
    comprehension that makes them, or the calls written out; None when it hands none."""
    facts = run.cell.facts
    for call in facts.calls:
        if call.qname not in TOGETHER:
            continue
        made = [c for c in facts.calls if isinstance(c.node.func, cst.Name) and c.node.func.value == name
                and any(a is call.node for a in run.cell.cell.ancestors(c.node))]
        if not made:
            continue
        looped = [c for c in made if c.loop is not None]
        if looped:
            n = loop_iterations(looped[0].loop.node, run.namespace)  # type: ignore[union-attr]
            return n if n is not None else MIN_COROUTINES
        return len(made)
    return None


def _call_text(site: Site) -> str:
    """The blocking call on the hot line, as written (``time.sleep``), when the sampler named no library
    function (a builtin of C, such as ``time.sleep``, has no frame of its own)."""
    calls = site.code.calls_on(site.hottest.line)
    return f"{calls[0].qname or site.code.cell.code(calls[0].node.func)}" if calls else "a blocking call"
