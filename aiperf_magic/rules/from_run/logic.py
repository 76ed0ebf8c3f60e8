"""Whether a function handed to ``apply``/``map`` does only what whole columns can do.

A row-wise ``apply`` is a trap when its function is numbers and conditions: arithmetic, comparisons,
``if``/``elif`` chains returning values, NumPy or ``math`` functions, pandas' missing-value tests
(``pd.notnull(row["a"])``: ``fillna``/``where`` on the columns), dates and durations made from
a row's values (``r["bought"] + pd.Timedelta(days=r["days"])``: ``pd.to_timedelta`` of the column),
rows written and returned
(``row["total"] = ...; return row``), other such functions of the notebook. Those become column
arithmetic, ``np.where``/``np.select`` or ``pd.cut``. A function that splits, joins or searches
strings, loops or calls arbitrary code has no whole-column form faster than the call per row: the
time of its ``apply`` is the function's own, and AIP302 does not speak of it.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts
from ..work import definition

# builtins that work on numbers (and ``map(math.radians, [...])`` in a helper's first line)
_NUMERIC_BUILTINS = frozenset({"abs", "round", "min", "max", "float", "int", "bool", "pow", "map", "sum", "len"})
_NUMERIC_MODULES = ("math.", "numpy.", "cmath.", "random.")
# pandas' missing-value tests, element by element: ``Series.notna()``/``isna()`` do a whole column
_NULL_TESTS = frozenset({"pandas.notnull", "pandas.isnull", "pandas.notna", "pandas.isna"})
# dates and durations made from one row's values: ``pd.to_timedelta(df["days"], unit="D")`` and
# ``pd.to_datetime`` make them for a whole column, and date arithmetic on columns is pandas' own
_DATE_SCALARS = frozenset({"pandas.Timedelta", "pandas.Timestamp", "pandas.to_timedelta", "pandas.to_datetime",
                           "datetime.timedelta"})
_OPERATORS = (cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Comparison, cst.IfExp)
_LEAVES = (cst.Name, cst.Integer, cst.Float, cst.SimpleString, cst.Imaginary)
MAX_DEPTH = 2  # functions called from the function, followed this deep


def vectorisable(facts: Facts, func: cst.BaseExpression, depth: int = 0) -> bool:
    """``func`` (a lambda, a name of a function or lambda, a builtin reducer) computes with numbers
    and conditions only."""
    if isinstance(func, cst.Lambda):
        return _expression(facts, func.body, depth)
    if isinstance(func, cst.Name):
        if func.value in ("max", "min", "sum", "abs", "round", "len") and func.value not in facts.functions:
            return True
        sym = facts.symbol(func)
        if sym is not None and isinstance(sym.node, cst.Lambda):
            return _expression(facts, sym.node.body, depth)
        definition_ = definition(facts, func.value)
        return definition_ is not None and depth <= MAX_DEPTH and _block(facts, definition_.body, depth)
    qname = facts.names.qname(func) if isinstance(func, cst.Attribute) else None
    return bool(qname and qname.startswith(_NUMERIC_MODULES))


def numbers_only(facts: Facts, body: cst.BaseSuite) -> bool:
    """A loop body (or function body) whose every statement computes with numbers and conditions."""
    return _block(facts, body, 0)


def _block(facts: Facts, body: cst.BaseSuite, depth: int) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    return all(_statement(facts, s, depth) for s in statements)


def _statement(facts: Facts, node: cst.CSTNode, depth: int) -> bool:
    if isinstance(node, cst.SimpleStatementLine):
        return all(_small(facts, s, depth) for s in node.body)
    if isinstance(node, cst.If):
        orelse = node.orelse
        rest = True
        if isinstance(orelse, cst.If):
            rest = _statement(facts, orelse, depth)
        elif isinstance(orelse, cst.Else):
            rest = _block(facts, orelse.body, depth)
        return _expression(facts, node.test, depth) and _block(facts, node.body, depth) and rest
    return False  # loops, try, with, nested definitions: not one expression per row


def _small(facts: Facts, node: cst.BaseSmallStatement, depth: int) -> bool:
    if isinstance(node, cst.Return):
        return node.value is None or _expression(facts, node.value, depth)
    if isinstance(node, cst.Assign):
        return all(_target(t.target) for t in node.targets) and _expression(facts, node.value, depth)
    if isinstance(node, (cst.AugAssign, cst.AnnAssign)):
        return node.value is not None and _target(node.target) and _expression(facts, node.value, depth)
    return isinstance(node, cst.Pass)


def _target(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(_target(e.value) for e in node.elements)
    return isinstance(node, (cst.Name, cst.Subscript, cst.Attribute))


def _expression(facts: Facts, node: cst.CSTNode, depth: int) -> bool:
    if isinstance(node, _LEAVES):
        return True
    if isinstance(node, (cst.Subscript, cst.Attribute)):
        return _expression(facts, node.value, depth)
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(_expression(facts, e.value, depth) for e in node.elements)
    if isinstance(node, _OPERATORS):
        return all(_expression(facts, child, depth) for child in _operands(node))
    if isinstance(node, cst.Call):
        return _numeric_call(facts, node, depth) and all(_expression(facts, a.value, depth) for a in node.args)
    return False


def _operands(node: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(node, cst.BinaryOperation):
        return [node.left, node.right]
    if isinstance(node, cst.UnaryOperation):
        return [node.expression]
    if isinstance(node, cst.BooleanOperation):
        return [node.left, node.right]
    if isinstance(node, cst.Comparison):
        return [node.left, *(c.comparator for c in node.comparisons)]
    if isinstance(node, cst.IfExp):
        return [node.test, node.body, node.orelse]
    return []


def _numeric_call(facts: Facts, call: cst.Call, depth: int) -> bool:
    func = call.func
    qname = facts.names.qname(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
    if qname and (qname.startswith(_NUMERIC_MODULES) or qname in _NULL_TESTS or qname in _DATE_SCALARS):
        return True
    if isinstance(func, cst.Name):
        if func.value in _NUMERIC_BUILTINS and func.value not in facts.functions:
            return True
        return depth < MAX_DEPTH and vectorisable(facts, func, depth + 1)
    return False


# methods that reduce a group's column to one number: groupby's own aggregations do them for every group at once
GROUP_REDUCERS = frozenset({"sum", "mean", "max", "min", "count", "std", "var", "median", "prod", "size", "nunique",
                            "first", "last", "any", "all"})


def group_reduction(facts: Facts, func: cst.BaseExpression) -> bool:
    """``lambda g: (g["q"] * g["p"]).sum()``, ``g["a"].sum() / g["b"].sum()``: a function of a group that
    computes with its columns' numbers and reduces them by groupby's own aggregations (the columns
    computed on the whole frame first, then one ``groupby(...).sum()``)."""
    if isinstance(func, cst.Name):
        sym = facts.symbol(func)
        func = sym.node if sym is not None and isinstance(sym.node, cst.Lambda) else func
    if not isinstance(func, cst.Lambda):
        return False
    return _reduced(facts, func.body)


def _reduced(facts: Facts, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in GROUP_REDUCERS:
        return not node.args and _expression(facts, node.func.value, 0)
    if isinstance(node, cst.BinaryOperation):
        sides = (node.left, node.right)
        return any(_reduced(facts, side) for side in sides) and all(
            _reduced(facts, side) or isinstance(side, (cst.Integer, cst.Float)) for side in sides)
    return False


# element parsers that pandas runs on a whole column in C, and the call that does it
PARSERS = {
    "datetime.datetime.strptime": "pd.to_datetime({column}, format=...)",
    "datetime.datetime.fromisoformat": "pd.to_datetime({column})",
    "dateutil.parser.parse": "pd.to_datetime({column})",
    "dateutil.parser._parser.parse": "pd.to_datetime({column})",
}


def element_parser(facts: Facts, func: cst.BaseExpression) -> str | None:
    """The parser a function of one element is (``lambda s: datetime.strptime(s, "%Y-%m-%d")``), when
    pandas has a whole-column form of it: the qualified name of the parser, else None."""
    if not isinstance(func, cst.Lambda) or not isinstance(func.body, cst.Call) or len(func.params.params) != 1:
        return None
    call, param = func.body, func.params.params[0].name.value
    qname = facts.names.qname(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    first = call.args[0].value if call.args else None
    if qname not in PARSERS or not (isinstance(first, cst.Name) and first.value == param):
        return None
    rest = [a.value for a in call.args[1:]]
    return qname if all(isinstance(v, cst.SimpleString) for v in rest) else None
