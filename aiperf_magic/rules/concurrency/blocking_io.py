"""AIP402 sequential-blocking-io: the detector, its documentation and its fixer."""

from __future__ import annotations

import io
import textwrap
import tokenize
from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import COMPREHENSIONS, ParsedCell
from ...cell.tree import append_parts, assigned_names, expect, names_in, walk_all
from ...fixes.edits import Edits
from ..facts import Call, Facts, Loop
from ..loops import few_iterations
from ..registry import Hit, fixer_for, rule
from ..work import calls_network, is_network_call
from .pooled_body import pooled_body


@rule(
    "AIP402",
    "sequential-blocking-io",
    "Blocking I/O one call after another in a loop: the loop mostly waits; run the calls concurrently",
)
def sequential_blocking_io(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags a loop that makes a blocking network call per iteration (`requests.get`,
    `urllib.request.urlopen`, `urlretrieve`, `httpx.get`, a `requests.Session` method), itself or
    through a function of the notebook it calls. Not flagged: loops of a few iterations, loops
    that sleep on purpose (polling, load tests), loops over local files (reading a local file
    rarely waits: parsing it is the work, and threads would not help it), and loops whose
    requests depend on each other: a cursor or next-page URL read from the last response, a
    `while` loop that stops when the response says there is no more (no pool can send those
    together). Inside `%%aiperf`, a loop whose measured time went into socket and HTTP calls, and
    while the process's CPU idled, is reported even when the request hides in a helper of an
    earlier cell or a module, with the requests counted.

    ## Why is this bad?
    Each iteration waits for the network (or disk) before starting the next request; the CPU is
    idle meanwhile. The GIL is released while waiting, so a thread pool (or `asyncio`) keeps
    many requests in flight and total time approaches the slowest request instead of the sum.
    Fetching 32 URLs that each take 20 ms to answer took 695 ms in a loop and 58 ms with
    16 threads: 12x (`benchmarks/traps/AIP402.py`, a local server adds the latency).

    ## Example
    ```python
    pages = []
    for url in urls:
        pages.append(requests.get(url, timeout=10).text)
    ```

    ## Use instead
    ```python
    def fetch(url):
        return requests.get(url, timeout=10).text

    with ThreadPoolExecutor(max_workers=16) as pool:
        pages = list(pool.map(fetch, urls))
    ```

    ## Fix safety
    Unsafe: requests run in a different order and at the same time; servers may rate-limit,
    and code in the loop that depends on the previous response cannot be parallelised.

    ## References
    - Seed article, chapter 3.3 ("asyncio and data loading: when it really speeds things up").
    """
    for loop in facts.loops:
        if few_iterations(facts, loop) or _paced(loop):
            continue
        for call in loop.calls:
            if call.loop is not loop:
                continue
            if is_network_call(facts, call) or _downloads(call) or _helper_waits(facts, call, loop):
                if not _chained(loop, call):
                    yield loop.node
                break


def chained_requests(loop: Loop) -> bool:
    """Some call of the loop takes what an earlier one returned in the loop (see :func:`_chained`):
    asked about a loop whose waits the run measured, when the call that waits is out of sight."""
    return any(c.loop is loop and _chained(loop, c) for c in loop.calls)


def _chained(loop: Loop, call: Call) -> bool:
    """Each request needs what the previous response said (a cursor or next-page URL read from it,
    a "has more" flag a while loop tests): the requests depend on each other, and no pool can send
    them together. Names bound in the loop from the response (directly or through other such
    names) that the request's arguments, or a while loop's condition, read."""
    from_response: set[str] = set()
    for assign in loop.assigns:
        value = assign.value
        if value is None:
            continue
        if any(n is call.node for n in walk_all(value)) or names_in(value) & from_response:
            for target in assign.targets:
                if isinstance(target, (cst.Name, cst.Tuple, cst.List)):
                    from_response |= names_in(target)
    from_response -= loop.targets
    if not from_response:
        return False
    used = set().union(*(names_in(arg.value) for arg in call.node.args)) if call.node.args else set()
    if isinstance(loop.node, cst.While):
        used |= names_in(loop.node.test)
    return bool(used & from_response)


def _downloads(call: Call) -> bool:
    return call.qname in ("urllib.request.urlretrieve", "wget.download")


def _helper_waits(facts: Facts, call: Call, loop: Loop) -> bool:
    """``get_page(url)`` per item, where the notebook's ``get_page`` makes the request."""
    func = call.node.func
    return isinstance(func, cst.Name) and func.value not in loop.targets and calls_network(facts, func)


def _paced(loop: Loop) -> bool:
    """The loop sleeps on purpose (polling, load generation, rate limits): it is meant to wait."""
    return any(c.qname == "time.sleep" for c in loop.calls)


@fixer_for("AIP402", "Run the blocking calls concurrently in threads")
def fix_io_loop(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    loop = expect(node, cst.For)
    if not isinstance(loop, cst.For):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in APPLIED:
            return _pooled_apply(cell, node)
        if isinstance(node, COMPREHENSIONS):
            return _pooled_comprehension(cell, node, facts)
        if isinstance(node, cst.While):
            return "a while loop: each request may depend on the one before"
        return "the finding is not on a for loop"
    if loop.orelse or not isinstance(loop.body, cst.IndentedBlock):
        return "the loop has an else clause or its body is on its own line"
    body = loop.body.body
    if (not isinstance(loop.target, cst.Name) or len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine)
            or len(body[0].body) != 1):
        # several statements: the part that waits becomes a function, the rest stays a loop
        return _pooled(cell, loop, facts)
    var = loop.target.value
    if any(var in names_in(s) for s in cell.following(loop)):
        return f"{var} is used after the loop, where the last item would no longer be bound"
    small = body[0].body[0]
    per_item = assigned_names(loop.body) - {var}
    edits = Edits("Run the blocking calls concurrently with ThreadPoolExecutor.map", safety="unsafe")
    pool = cell.fresh("pool")
    items = cell.code(loop.iter)

    def mapped(value: cst.BaseExpression) -> str | None:
        if names_in(value) & per_item:
            return None
        return f"{pool}.map(lambda {var}: {cell.code(value)}, {items})"

    line: str | None = None
    if (parts := append_parts(small)) is not None:
        owner, value = parts
        m = mapped(value)
        if m is not None and var not in names_in(owner):
            line = f"{cell.code(owner)}.extend({m})"
    elif (
        isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Subscript)
    ):
        target = small.targets[0].target
        key = target.slice[0].slice if len(target.slice) == 1 else None
        m = mapped(small.value)
        if (
            m is not None
            and isinstance(key, cst.Index)
            and cell.code(key.value) == var
            and isinstance(loop.iter, cst.Name)
            and var not in names_in(target.value)
        ):
            # the items are walked twice (keys and map), so only a named collection qualifies
            line = f"{cell.code(target.value)}.update(zip({items}, {m}))"
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        m = mapped(small.value)
        if m is not None:
            line = f"list({m})"
    if line is None:
        return _pooled(cell, loop, facts)
    tpe = edits.need_from(cell, "concurrent.futures", "ThreadPoolExecutor")
    edits.replace[loop] = cst.parse_statement(f"with {tpe}() as {pool}:\n    {line}\n")
    return edits


def _pooled(cell: ParsedCell, loop: cst.For, facts: Facts) -> Edits | str:
    """The loop's waiting part mapped over a pool, the rest kept as a loop (see :mod:`.pooled_body`)."""
    found = next((x for x in facts.loops if x.node is loop), None)
    if found is None:
        return "the loop is not one the analysis walked"
    waits = [c.node for c in found.calls if c.loop is found and (
        is_network_call(facts, c) or _downloads(c) or _helper_waits(facts, c, found))]
    edits = Edits("Run the blocking calls concurrently with ThreadPoolExecutor.map", safety="unsafe")
    tpe = edits.need_from(cell, "concurrent.futures", "ThreadPoolExecutor")
    why = pooled_body(cell, loop, waits, edits, tpe)
    return why if why is not None else edits


def _pooled_comprehension(cell: ParsedCell, comp: cst.CSTNode, facts: Facts) -> Edits | str:
    """``[fetch(x) for x in xs]`` -> ``list(pool.map(lambda x: fetch(x), xs))`` in a pool around
    its statement: the same items in the same order, each item's exception raised where the list
    reaches it (after every request ran, as the fix's safety says). Only a list comprehension of one
    ``for`` over a plain name, its filters kept (they run first, in order, in this thread)."""
    if not isinstance(comp, cst.ListComp):
        return "the calls are in a set, dict or generator comprehension; only a list comprehension keeps their order"
    loop = comp.for_in
    if loop.inner_for_in is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return "the comprehension nests, awaits or unpacks its items; only [f(x) for x in xs] is rewritten"
    var = loop.target.value
    if any(isinstance(n, (cst.NamedExpr, cst.Yield, cst.Await, cst.Lambda)) for n in walk_all(comp.elt)):
        return "the comprehension's element binds a name, awaits or builds a function"
    statement = cell.statement(comp)
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return "the comprehension is not in a statement of its own"
    items = cell.code(loop.iter)
    if loop.ifs:
        items = f"({var} for {var} in {items} {' '.join(cell.code(i) for i in loop.ifs).strip()})"
    edits = Edits("Run the blocking calls concurrently with ThreadPoolExecutor.map", safety="unsafe")
    pool = cell.fresh("pool")
    tpe = edits.need_from(cell, "concurrent.futures", "ThreadPoolExecutor")
    # the statement's own lines (its comments above stay above the with, as with_comments keeps them)
    text, old = cell.module.code_for_node(statement.with_changes(leading_lines=[])), cell.code(comp)
    if text.count(old) != 1:
        return "the comprehension's text is not unique in its statement"
    inner = text.replace(old, f"list({pool}.map(lambda {var}: {cell.code(comp.elt)}, {items}))").strip("\n")
    edits.replace[statement] = cst.parse_statement(f"with {tpe}() as {pool}:\n{textwrap.indent(inner, '    ')}\n")
    return edits


APPLIED = ("apply", "map")


def _pooled_apply(cell: ParsedCell, call: cst.Call) -> Edits | str:
    """``df["c"] = df["id"].apply(fetch)`` -> ``df["c"] = list(pool.map(fetch, df["id"]))`` in a pool
    around the statement: pandas calls the function once per element in order, and so does the
    pool's map, whose results come back in that order; the list lines up with the frame's rows
    because the column it maps is the same frame's. Only a function passed alone (no ``args=``,
    ``na_action=``) and a result stored as a column of the frame it came from."""
    assert isinstance(call.func, cst.Attribute)
    series = call.func.value
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return "the apply passes more than the function (args=, na_action=, convert_dtype=)"
    statement = cell.statement(call)
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
    if small is None or small.value is not call or not isinstance(target, cst.Subscript):
        return "the apply's result is not stored as a column (df[\"c\"] = ...); a list would not be its Series"
    if not (isinstance(series, cst.Subscript) and cell.code(series.value) == cell.code(target.value)
            and isinstance(series.value, cst.Name)):
        return "the applied column is not a column of the frame the result goes to, so a list would not line up"
    edits = Edits("Run the blocking calls concurrently with ThreadPoolExecutor.map", safety="unsafe")
    pool = cell.fresh("pool")
    tpe = edits.need_from(cell, "concurrent.futures", "ThreadPoolExecutor")
    function = cell.code(call.args[0].value)
    line = f"{cell.code(target)} = list({pool}.map({function}, {cell.code(series)}))"
    comments = _comments(cell.module.code_for_node(statement.with_changes(leading_lines=[])))
    if comments:  # the user's comments on the statement's lines stay with it, at the end of its one line
        line += "  " + "  ".join(comments)
    edits.replace[statement] = cst.parse_statement(f"with {tpe}() as {pool}:\n{textwrap.indent(line, '    ')}\n")
    return edits


def _comments(text: str) -> list[str]:
    """The comments of a statement's text, in order."""
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return []
