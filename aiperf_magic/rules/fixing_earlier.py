"""Rewrites of a function an earlier cell defined, when the measured cell only calls it.

The run finds the hot loop inside ``compute_reciprocals`` of cell [1] while the measured cell is
``result = compute_reciprocals(big_array)``. The rule's own fixer rewrites the loop where it is, in
the earlier cell's code (the same fixer and preconditions as in a cell of its own: the array-safety
checks of AIP201, the set of AIP202, the pool of AIP402); the result is a :class:`Fix` whose
``cell`` names that cell, ``cell_source`` is the whole cell rewritten, ``diff`` its diff, and
``rebind`` the rewritten definitions alone, which Try runs before the measured cell (see
:mod:`aiperf_magic.verification.rebind`). ``source`` stays the measured cell as it is.

Refused, with the reason, when the rewrite would not be the one the cell calls: the function is not
an earlier cell's (a module's file is not a cell), the kernel's name no longer holds the function
that cell defined (redefined since), the loop is in a method (instances made earlier keep the old
class), or the rewrite changes statements other than definitions and imports (re-running them
would redo the cell's work).
"""

from __future__ import annotations

import ast
import types
from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from ..cell.parsed import ParsedCell
from ..fixes.edits import Edits, bound_names, rewrite_python, unified_diff
from ..report import Finding, Fix
from .facts import Facts
from .fixing import _FIXER_ERRORS
from .registry import all_rules

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom)


def fix_in_earlier_cell(
    finding: Finding,
    measured: str,
    cell: ParsedCell,
    facts: Facts,
    node: cst.CSTNode | None,
    where: str | None,
    file: str | None,
    namespace: Mapping[str, Any],
    argument: Callable[[str], Any] = lambda name: None,
    label: str | None = None,
) -> Fix:
    """The rewrite of ``node`` (a loop of a function of the earlier cell ``where``), as a Fix of the
    measured cell ``measured``; ``Fix.reason`` says why when there is none. ``argument(name)`` is
    the live object the measured cell's call binds to a parameter of the function (None when
    the run does not tell): the fixer then reads its dtypes and types, as it reads a cell's own data."""
    rule = all_rules()[finding.code]
    title = rule.fix_title
    function = _function_of(cell, node) if node is not None else None
    name = function.name.value if function is not None else (label or "the function")
    elsewhere = (f"the loop is in {name}, defined in {where}: its rewrite belongs there" if where else
                 f"the loop is in {name}, which this cell defines and runs from elsewhere (a thread, a "
                 "callback, another function): only loops at a cell's top level or in a function an earlier "
                 "cell defined are rewritten")
    if rule.fixer is None or node is None or where is None or not where.startswith("cell ["):
        return Fix(title=title, reason=elsewhere)
    if function is None or not _top_level(cell, function):
        return Fix(title=title, reason=f"{elsewhere} (the loop is not in a function of that cell's top level: "
                                       "a method's class made earlier keeps the old one)")
    if not _same_function(namespace.get(name), file, cell, function):
        return Fix(title=title, reason=f"{elsewhere}; {name} was defined again since, so that cell's "
                                       "rewrite would not be the function this cell calls")
    cell, facts, node = _as_typed(where, cell, facts, node, namespace)
    function = _function_of(cell, node) or function
    cell, facts, node = _with_arguments(cell, facts, node, function, namespace, argument)
    try:
        with bound_names(facts.names.bound_to, facts.names.holds):
            edits = rule.fixer(cell, node, facts)
    except _FIXER_ERRORS as exc:
        return Fix(title=title, reason=f"the rewrite could not be built here ({type(exc).__name__}: {exc})")
    if not isinstance(edits, Edits):
        return Fix(title=title, reason=f"{edits or 'no rewrite exists'} (in {name}, {where})")
    python = rewrite_python(cell, [edits])
    new = cell.python.restore(python) if python is not None else None
    kept = {"title": edits.title, "safety": "unsafe" if edits.needs_consent else "safe",
            "measure_first": edits.measure_first}
    if new is None or python is None:
        return Fix(**kept, reason="the rewrite would not compile")
    if new == cell.source:
        return Fix(**kept, reason="the rewrite changes nothing")
    rebind = changed_definitions(cell.python.text, python)
    if rebind is None:
        return Fix(**kept, reason=f"{elsewhere}; the rewrite changes more of {where} than definitions, "
                                  "which running it again would redo")
    return Fix(**kept, source=measured, diff=unified_diff(cell.source, new, name=where), cell=where,
               cell_source=new, rebind=rebind, cell_ran=cell.source)


def _with_arguments(cell: ParsedCell, facts: Facts, node: cst.CSTNode, function: cst.FunctionDef,
                    namespace: Mapping[str, Any], argument: Callable[[str], Any]
                    ) -> tuple[ParsedCell, Facts, cst.CSTNode]:
    """The earlier cell parsed again with the live arguments of the call under their parameters'
    names, and under the names of the function's top-level locals that are the parameter itself or
    its copy (``out = df.copy()``): the rewrite of ``out.loc[i, "total"] = ...`` then knows
    ``out``'s columns, as it would in a cell of its own. Unchanged when the run tells none."""
    live: dict[str, Any] = {}
    for param in function.params.params:
        value = argument(param.name.value)
        if value is not None:
            live[param.name.value] = value
    if not live:
        return cell, facts, node
    for line in function.body.body:
        assign = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            continue
        target, value = assign.targets[0].target, assign.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy":
            value = value.func.value
        if isinstance(target, cst.Name) and isinstance(value, cst.Name) and value.value in live:
            live.setdefault(target.value, live[value.value])
    return _reparsed(cell.source, cell, facts, node, {**namespace, **live})


def _reparsed(text: str, cell: ParsedCell, facts: Facts, node: cst.CSTNode, namespace: Mapping[str, Any]
              ) -> tuple[ParsedCell, Facts, cst.CSTNode]:
    """``text`` parsed with ``namespace``, and the node standing where ``node`` stood; the old parse
    when no node of its kind stands there."""
    from .engine import prepare_cell  # the same parse and facts as a measured cell's

    again = prepare_cell(text, namespace=namespace)
    if again.cell is None or again.facts is None:
        return cell, facts, node
    at = cell.user_range(node)
    same = next((n for n in again.cell.positions if type(n) is type(node) and again.cell.user_range(n) == at), None)
    return (again.cell, again.facts, same) if same is not None else (cell, facts, node)


def _as_typed(where: str, cell: ParsedCell, facts: Facts, node: cst.CSTNode, namespace: Mapping[str, Any]
              ) -> tuple[ParsedCell, Facts, cst.CSTNode]:
    """The earlier cell as the user typed it (``%load_ext``, ``!pip`` lines and all), from the shell's
    raw input history; the code IPython compiled (what the sampler's file holds) has those lines
    turned into calls. Line for line the same, so the node stands where it stood."""
    try:
        number = int(where.removeprefix("cell [").rstrip("]"))
        shell = namespace["get_ipython"]()  # the shell of the kernel the cell ran in
        raw = shell.history_manager.input_hist_raw[number]
    except Exception:  # not a kernel's namespace, or no such history entry
        return cell, facts, node
    if not isinstance(raw, str) or raw.rstrip("\n") == cell.source.rstrip("\n"):
        return cell, facts, node
    return _reparsed(raw, cell, facts, node, namespace)


def changed_definitions(old: str, new: str) -> str | None:
    """The top-level statements of ``new`` that ``old`` does not have, in order, as text: definitions
    and imports only (None when another kind of statement changed)."""
    try:
        before, after = ast.parse(old), ast.parse(new)
    except SyntaxError:
        return None
    known: dict[str, int] = {}
    for statement in before.body:
        known[ast.dump(statement)] = known.get(ast.dump(statement), 0) + 1
    lines = new.splitlines(keepends=True)
    out: list[str] = []
    for statement in after.body:
        key = ast.dump(statement)
        if known.get(key):
            known[key] -= 1
            continue
        if not isinstance(statement, DEFINITIONS):
            return None
        decorators = getattr(statement, "decorator_list", [])
        first = min([statement.lineno, *(d.lineno for d in decorators)])
        out.append("".join(lines[first - 1 : statement.end_lineno]))
    return "".join(text if text.endswith("\n") else text + "\n" for text in out) or None


def _function_of(cell: ParsedCell, node: cst.CSTNode) -> cst.FunctionDef | None:
    """The outermost function holding ``node``."""
    found = None
    at: cst.CSTNode | None = node
    while at is not None:
        if isinstance(at, cst.FunctionDef):
            found = at
        at = cell.parents.get(at)
    return found


def _top_level(cell: ParsedCell, function: cst.FunctionDef) -> bool:
    return isinstance(cell.parents.get(function), cst.Module)


def _same_function(live: Any, file: str | None, cell: ParsedCell, function: cst.FunctionDef) -> bool:
    """The kernel's name holds the function this code defines (its code's file and first line)."""
    if not isinstance(live, types.FunctionType):
        return False
    code = live.__code__
    if file is not None and code.co_filename != file:
        return False
    rng = cell.user_range(function)
    decorators = [cell.user_range(d) for d in function.decorators]
    starts = {r[0] for r in [rng, *decorators] if r is not None}
    line = cell.user_range(function.name)
    if line is not None:
        starts.add(line[0])
    return code.co_firstlineno in starts
