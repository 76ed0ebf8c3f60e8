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

from ... import units as fmt
from ..evidence import loop_iterations
from .callees import AWAITING
from .cellcalls import bodies, lines_of, reached
from .helpers import top_function
from .loading import WAIT_SHARE
from .run import Explained, Run
from .shapes import work_shares
from .sites import MIN_SECONDS, Site, counts

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
    if site.callee_share((AWAITING,)) >= 0.5:
        return None  # suspended at an await: the event loop runs the others meanwhile
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


AWAIT_ADVICE = ("Each iteration awaits its call before the next one starts, so the calls run one after another: "
                "make the coroutines first and await them together (asyncio.gather(*(...)), or asyncio.TaskGroup)")
AWAIT_FIX = ("gather starts every call at once (a server may limit how many it takes) and raises the first error "
             "after all have started: written by hand, with a semaphore where the server needs one")


def awaited_one_by_one(site: Site, run: Run) -> Explained | None:
    """``for url in urls: r = await asyncio.to_thread(requests.get, url)``: a loop that awaits each
    call before making the next; the run shows the cell suspended at that ``await`` for most of the
    loop's time, each iteration's call independent of the last."""
    from ..concurrency.blocking_io import chained_requests

    loop = site.loop
    if loop is None or site.code is not run.cell or not counts(site) or not isinstance(loop.node, cst.For):
        return None
    if site.callee_share((AWAITING,)) < WAIT_SHARE or chained_requests(loop):
        return None
    awaits = [node for node in _awaits(loop.node) if (span := site.code.span(node)) is not None
              and any(span[0] <= h.line <= span[1] for h in site.lines)]
    n = site.loop_count or loop_iterations(loop.node, run.namespace) or _argument_length(run, loop)
    if not awaits or (n is not None and n < MIN_COROUTINES):
        return None
    each = f"{n:,} calls" if n else "its calls"
    evidence = (f"{run.took(site)} suspended at `await`, one iteration at a time: the loop waited for each of "
                f"{each} before starting the next")
    return Explained("AIP402", site, awaits[0], evidence, {"requests": n}, at=awaits[0], advice=AWAIT_ADVICE,
                     fix_reason=AWAIT_FIX)


def _awaits(node: cst.CSTNode) -> list[cst.Await]:
    out: list[cst.Await] = []
    stack = [node]
    while stack:
        sub = stack.pop()
        if isinstance(sub, (cst.FunctionDef, cst.Lambda)) and sub is not node:
            continue
        if isinstance(sub, cst.Await):
            out.append(sub)
        stack.extend(sub.children)
    return out


def _argument_length(run: Run, loop: object) -> int | None:
    """The length of what a loop of an ``async def`` walks, when it is a parameter the cell's call of
    that function passed a live list (``fetch_all(urls)``)."""
    from .run import MISSING

    it = getattr(getattr(loop, "node", None), "iter", None)
    if not isinstance(it, cst.Name):
        return None
    site_like = type("S", (), {"code": run.cell, "loop": loop})()
    live = run.live(site_like, it.value)  # type: ignore[arg-type]
    try:
        return len(live) if live is not MISSING else None  # type: ignore[arg-type]
    except TypeError:
        return None


SUBMIT_ADVICE = ("Each future's result is waited for before the next task is submitted, so the pool runs one task at "
                 "a time: submit them all first, then collect the results (pool.map(f, items) keeps their order)")
SUBMIT_FIX = ("collecting after submitting everything changes when a task's exception is raised and how many run at "
              "once: written by hand")


def waited_as_submitted(site: Site, run: Run) -> Explained | None:
    """``future = pool.submit(f, x)`` then ``future.result()`` in the same iteration: the loop waits for
    each task before it submits the next, whatever the pool's size."""
    loop = site.loop
    if loop is None or site.seconds < MIN_SECONDS or site.callee_share(("Future.result",)) < 0.3:
        return None
    submits = [c for c in loop.calls if c.method == "submit" and c.node.args]
    # the sampler splits each tick among the threads it saw: the loop's thread waited while the pool's
    # ran the task, so the loop and the task's lines together are what the loop cost
    tasks = [_task_share(run, c.node.args[0].value) for c in submits]
    if not submits or site.share + max(tasks) < DOMINANT_WAIT:
        return None
    submitted = {name for a in loop.assigns if isinstance(a.value, cst.Call) and isinstance(a.value.func, cst.Attribute)
                 and a.value.func.attr.value == "submit" for name in _names(a.targets)}
    for call in loop.calls:
        if call.loop is not loop or call.method != "result" or call.receiver is None:
            continue
        direct = isinstance(call.receiver, cst.Call) and isinstance(call.receiver.func, cst.Attribute) and (
            call.receiver.func.attr.value == "submit")  # pool.submit(f, x).result()
        if not direct and not (isinstance(call.receiver, cst.Name) and call.receiver.value in submitted):
            continue
        n = site.loop_count or loop_iterations(loop.node, run.namespace)
        if n is not None and n < MIN_COROUTINES:
            return None
        count = f"{n:,} tasks" if n else "its tasks"
        task = submits[max(range(len(tasks)), key=lambda k: tasks[k])].node.args[0].value
        named = f" with the {task.value}() tasks it submits," if isinstance(task, cst.Name) else ""
        share = fmt.percent(min(1.0, site.share + max(tasks)))
        evidence = (f"{run.lines(site)},{named} took {share} of the {fmt.seconds(run.wall_s)} cell: it waited for each "
                    f"future's result before submitting the next, so the pool ran {count} one at a time")
        return Explained("AIP402", site, loop.node, evidence, {"requests": n}, advice=SUBMIT_ADVICE,
                         fix_reason=SUBMIT_FIX)
    return None


DOMINANT_WAIT = 0.5  # of the cell, the loop and the tasks it waits for


def _task_share(run: Run, func: cst.BaseExpression) -> float:
    """The share of the cell on the lines of the function handed to ``submit``: the measured cell's
    own (its lines), or another cell's or module's (the sampler's function lines)."""
    if not isinstance(func, cst.Name):
        return 0.0
    name = func.value
    own = lines_of(run, [name, *reached(run, *bodies(run)[name])]) if name in bodies(run) else []
    elsewhere = [h for h in run.report.function_lines if top_function(h.function) == name]
    return min(1.0, sum(h.share for h in own + elsewhere))


def _names(targets: object) -> list[str]:
    return [t.value for t in targets if isinstance(t, cst.Name)]  # type: ignore[attr-defined]
