"""AIP402 for a loop body of several statements: the part that waits becomes a function mapped over
a thread pool, the rest of the body stays a loop, run in order on the results.

```python
for entry in data:                         def score_one(entry):
    prompt = f"score {entry['text']}"          prompt = f"score {entry['text']}"
    score = query_model(prompt)                score = query_model(prompt)
    try:                               ->      return entry, prompt, score
        scores.append(int(score))
    except ValueError:                     with ThreadPoolExecutor() as pool:
        continue                               for entry, prompt, score in pool.map(score_one, data):
                                                   try:
                                                       scores.append(int(score))
                                                   except ValueError:
                                                       continue
```

The **head** is the body's statements up to the last one that makes a blocking call; the **tail**
is the rest. ``pool.map`` keeps the items' order and raises, when its result is reached, the
exception the head raised for that item: the tail has then run for every earlier item, as in the
loop. The names the head binds come back with each item and are bound again by the loop, so after
the loop they hold what the last item left, as before. What the analysis checks (each refusal is a
golden "no fix, because ..." case):

- the head is statements without control flow (no ``break``/``continue``/``return``/``yield``, no
  ``try``/``if``/nested loops): each item's head runs whole, whatever the others do;
- the head binds only plain names (no ``d[k] = ...``, ``obj.x = ...``), mutates nothing
  (``append``/``update``/``+=``), declares no ``global``/``nonlocal`` and prints nothing: run in
  threads, these would happen in another order;
- the head reads no name that the tail binds or mutates, nor one the head binds only further down
  (a value carried from one item to the next): the tail runs after all heads;
- the items do not depend on what the tail changes (the pool reads them all first);
- the loop has no ``else`` and its target is a name or a tuple of names.
"""

from __future__ import annotations

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import append_parts, assigned_names, names_in, walk_all
from ...fixes.edits import Edits

_PRINTS = frozenset({"print", "display", "pprint"})


def pooled_body(cell: ParsedCell, loop: cst.For, waits: list[cst.Call], edits: Edits, pool_class: str) -> str | None:
    """Fill ``edits`` with the rewrite described above; why not, when it does not apply."""
    if not isinstance(loop.body, cst.IndentedBlock):
        return "the loop body is on the loop's line"
    body = list(loop.body.body)
    waiting = [i for i, s in enumerate(body) if any(any(n is c for n in walk_all(s)) for c in waits)]
    if not waiting:
        return "the blocking call is not a statement of the loop's own body"
    head, tail = body[: waiting[-1] + 1], body[waiting[-1] + 1 :]
    split = _split_store(cell, head[-1], waits)
    if split is not None:
        head, tail = [*head[:-1], split[0]], [split[1], *tail]
    head, moved = _prints_moved(head)
    tail = [*moved, *tail]
    why = _head_problem(head, tail, loop)
    if why is not None:
        return why
    target = cell.code(loop.target)
    targets = names_in(loop.target)
    bound = set().union(*(assigned_names(s) for s in head)) - targets
    function = next((a for a in cell.ancestors(loop) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)
    if isinstance(function, cst.FunctionDef):
        # a function's locals end with it: only what the tail or the rest of the function reads comes back
        rest = [n for n in walk_all(function.body) if isinstance(n, cst.Name)
                and not any(n is m for s in head for m in walk_all(s))]
        bound &= {n.value for n in rest}
    bound_names = sorted(bound)
    func = cell.fresh("fetch_one")
    pool = cell.fresh("pool")
    param = target if isinstance(loop.target, cst.Name) else cell.fresh("item")
    unpack = [] if isinstance(loop.target, cst.Name) else [f"{target} = {param}\n"]
    returned = ", ".join([param, *bound_names])
    if not bound_names and isinstance(loop.target, cst.Name):
        returned = param
    loop_target = ", ".join([target if isinstance(loop.target, cst.Name) else f"({target})", *bound_names])
    nl = cell.module.default_newline
    head_code = "".join(cell.module.code_for_node(s) for s in head)
    lines = [f"def {func}({param}):{nl}", *(f"    {u}" for u in unpack), _indent(head_code),
             f"    return {returned}{nl}"]
    definition = cst.parse_statement("".join(lines))
    tail_code = "".join(cell.module.code_for_node(s) for s in tail) or f"pass{nl}"
    comment = loop.body.header.comment
    pooled = cst.parse_statement(
        f"with {pool_class}() as {pool}:{nl}"
        f"    for {loop_target} in {pool}.map({func}, {cell.code(loop.iter)}):"
        f"{'  ' + comment.value if comment else ''}{nl}"
        + _indent(tail_code, "        ")
    )
    lead = list(loop.leading_lines)
    if not lead or lead[0].comment is not None:
        lead.insert(0, cst.EmptyLine(indent=False))
    edits.replace[loop] = cst.FlattenSentinel([
        definition.with_changes(leading_lines=lead),
        pooled.with_changes(leading_lines=[cst.EmptyLine(indent=False)]),
    ])
    return None


def _prints_moved(head: list[cst.BaseStatement]) -> tuple[list[cst.BaseStatement], list[cst.BaseStatement]]:
    """Progress lines (``print(f"fetching {url}")``) of the head move to the start of the tail, in
    their order, when nothing after them in the head rebinds what they print: the output keeps its
    order (only the line of an item whose request raised is no longer printed before the error)."""
    kept: list[cst.BaseStatement] = []
    moved: list[cst.BaseStatement] = []
    for i, statement in enumerate(head):
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        later = set().union(*(assigned_names(s) for s in head[i + 1 :])) if i + 1 < len(head) else set()
        if (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name)
                and small.value.func.value == "print" and not names_in(small) & later
                and not any(isinstance(n, cst.Call) for n in walk_all(small.value) if n is not small.value)):
            moved.append(statement)
        else:
            kept.append(statement)
    return kept, moved


def _split_store(cell: ParsedCell, last: cst.BaseStatement, waits: list[cst.Call]
                 ) -> tuple[cst.BaseStatement, cst.BaseStatement] | None:
    """``out.append(fetch(x))`` / ``d[k] = fetch(x)`` as the last statement that waits: the value is
    computed in the head (``result = fetch(x)``), stored in order by the tail (``out.append(result)``)."""
    if not isinstance(last, cst.SimpleStatementLine) or len(last.body) != 1:
        return None
    small = last.body[0]
    parts = append_parts(small)
    if parts is not None:
        owner, value = parts
        store = f"{cell.code(owner)}.append({{}})"
    elif isinstance(small, cst.Assign) and len(small.targets) == 1 and not isinstance(small.targets[0].target,
                                                                                     (cst.Name, cst.Tuple, cst.List)):
        owner, value = small.targets[0].target, small.value
        store = f"{cell.code(owner)} = {{}}"
    else:
        return None
    if not any(n is c for n in walk_all(value) for c in waits) or any(n is c for n in walk_all(owner) for c in waits):
        return None
    result = cell.fresh("result")
    nl = cell.module.default_newline
    head = cst.parse_statement(f"{result} = {cell.code(value)}{nl}").with_changes(leading_lines=last.leading_lines)
    tail = cst.parse_statement(store.format(result) + nl).with_changes(trailing_whitespace=last.trailing_whitespace)
    return head, tail


def _indent(code: str, by: str = "    ") -> str:
    """``code`` (statements as written at the loop body's depth) at the depth of ``by``."""
    lines = code.splitlines(keepends=True)
    depth = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return "".join(by + x[depth:] if x.strip() else x for x in lines)


def _head_problem(head: list[cst.BaseStatement], tail: list[cst.BaseStatement], loop: cst.For) -> str | None:
    if loop.orelse is not None:
        return "the loop has an else clause"
    if not all(isinstance(t, cst.Name) for t in _target_names(loop.target)):
        return "the loop's target is not a name or a tuple of names"
    targets = names_in(loop.target)
    read_later: set[str] = set()
    bound_so_far: set[str] = set()
    for statement in head:
        if not isinstance(statement, cst.SimpleStatementLine):
            return "a statement before the blocking call has its own block (if, try, with, a loop)"
        for small in statement.body:
            if isinstance(small, (cst.Break, cst.Continue, cst.Return, cst.Global, cst.Nonlocal, cst.Del)):
                return "a statement before the blocking call changes the loop's flow or the scope's names"
            if isinstance(small, cst.AugAssign):
                return "a statement before the blocking call updates a value (+=) from one item to the next"
            if any(isinstance(n, (cst.Yield, cst.Await)) for n in walk_all(small)):
                return "the part before the blocking call yields or awaits"
            if any(isinstance(n, cst.NamedExpr) for n in walk_all(small)):
                return "the part before the blocking call binds a name with := inside an expression"
            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets_of = small.targets if isinstance(small, cst.Assign) else [small]
                for t in targets_of:
                    if not all(isinstance(n, cst.Name) for n in _target_names(t.target)):
                        return "a statement before the blocking call stores into an object (d[k] = ..., obj.x = ...)"
            mutated = assigned_names(small) - {n for t in _assign_targets(small) for n in names_in(t)}
            if mutated:
                return f"the part that would run in threads changes {sorted(mutated)[0]} in place"
            if any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in _PRINTS
                   for n in walk_all(small)):
                return "the part before the blocking call prints: in threads its lines would come in another order"
            reads = names_in(small) - {n for t in _assign_targets(small) for n in names_in(t)}
            read_later |= reads - bound_so_far - targets
            bound_so_far |= {n for t in _assign_targets(small) for n in names_in(t)}
    changed_in_tail = set().union(*(assigned_names(s) for s in tail)) if tail else set()
    if names_in(loop.iter) & changed_in_tail:
        # (u for u in urls if u not in seen) with seen.append(...) below: the pool reads every item first
        return f"the items depend on {sorted(names_in(loop.iter) & changed_in_tail)[0]}, which the loop changes"
    carried = (read_later & changed_in_tail) | (read_later & bound_so_far)
    if carried:
        return f"{sorted(carried)[0]} carries a value from one item to the next"
    return None


def _assign_targets(small: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    if isinstance(small, cst.Assign):
        return [t.target for t in small.targets]
    if isinstance(small, cst.AnnAssign):
        return [small.target]
    return []


def _target_names(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _target_names(e.value)]
    return [target]
