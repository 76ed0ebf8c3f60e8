"""Element-wise expressions: the one definition of what a per-element Python expression may contain
for a whole-array (NumPy / pandas) expression to compute the same thing.

Detectors ask :func:`elementwise` ("would this become one array expression?") and fixers call
:func:`vectorise` to write it; both walk the same closed language: numbers and string constants,
arithmetic, single comparisons, ``and``/``or`` of comparisons, ``x if c else y`` (as
``np.where``), ``abs`` and the ``math``/NumPy functions that NumPy has under the same name, names
from outside the loop (scalars), and the element itself, which ``subst`` rewrites into the whole
array or column. Anything else (a call that may have side effects, a method, a subscript that
depends on the element) means no.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

import libcst as cst

from ..cell.tree import call_name, expr, names_in, walk_all

# Functions of one number that NumPy has under the same name (``math.fabs`` -> ``np.abs``).
UFUNCS = frozenset({"sqrt", "exp", "log", "log10", "log2", "log1p", "expm1", "sin", "cos", "tan", "tanh", "fabs",
                    "asin", "acos", "atan", "sinh", "cosh", "radians", "degrees", "arcsin", "arccos", "arctan"})
# math's names that NumPy spells otherwise (``math.asin`` -> ``np.arcsin``)
NUMPY_NAMES = {"fabs": "abs", "asin": "arcsin", "acos": "arccos", "atan": "arctan"}
# Tests for a missing value that take a whole column as they take one value (a bool per element)
NULL_TESTS = frozenset({"isnull", "notnull", "isna", "notna"})
# Functions whose result is a number: what "computes a number here" means to the detectors.
NUMERIC_FUNCS = UFUNCS | {"abs", "round", "pow", "hypot", "atan2", "floor", "ceil", "sigmoid"}
ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
COMPARE = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)
_MODULES = ("math", "np", "numpy")

# node -> replacement code for the element (e.g. ``row["a"]`` -> ``df["a"]``), or None to keep the node
Subst = Callable[[cst.CSTNode], "str | None"]


# A fixer's helpers: the name of a notebook function's NumPy twin, or None (see :mod:`.numpy_twins`)
Helpers = Callable[[str], "str | None"]
_HELPERS: ContextVar[Helpers | None] = ContextVar("aiperf_elementwise_helpers", default=None)


def elementwise(node: cst.BaseExpression, subst: Subst, loop_names: set[str], helpers: Helpers | None = None) -> bool:
    """True when ``node`` is in the language and reads the element at least once. With ``helpers``,
    a call of a notebook function that has a NumPy twin is in the language too (its arguments must be)."""
    uses: list[bool] = []
    token = _HELPERS.set(helpers)
    try:
        return _ok(node, subst, loop_names, uses) and bool(uses)
    finally:
        _HELPERS.reset(token)


def vectorise(node: cst.BaseExpression, subst: Subst, loop_names: set[str], numpy: Callable[[], str],
              helpers: Helpers | None = None) -> str | None:
    """The whole-array form of ``node``, or None when it leaves the language.

    ``loop_names`` are names bound per element (the loop target, a row); they must be consumed by
    ``subst``. ``numpy`` returns the name to write for NumPy (importing it only when used).
    ``helpers`` gives the twins of the notebook's functions the expression may call.
    """
    if not elementwise(node, subst, loop_names, helpers):
        # no element in the expression: ``[0 for _ in xs]`` is not element-wise arithmetic
        return None
    out = node.visit(_Rewrite(subst, numpy, helpers))
    assert isinstance(out, cst.CSTNode)
    return cst.Module(body=[]).code_for_node(out)


def is_null_test(node: cst.CSTNode) -> bool:
    """``pd.notnull(x)``, ``pd.isna(x)``, ``np.isnan(x)``, ``math.isnan(x)``: a bool for a value, a bool
    per element for a column."""
    if not isinstance(node, cst.Call):
        return False
    head, _, leaf = call_name(node).rpartition(".")
    return (head in ("pd", "pandas") and leaf in NULL_TESTS) or (head in _MODULES and leaf == "isnan")


def uses_where(node: cst.CSTNode) -> bool:
    """``x if c else y`` becomes ``np.where``, which evaluates both branches: such rewrites are unsafe."""
    return any(isinstance(n, cst.IfExp) for n in walk_all(node))


def _ok(node: cst.CSTNode, subst: Subst, loop_names: set[str], uses: list[bool]) -> bool:
    if subst(node) is not None:
        uses.append(True)
        return True
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name):
        return node.value not in loop_names and node.value != "None"
    if isinstance(node, (cst.Attribute, cst.Subscript)):
        # cfg.scale or weights[0] from outside the loop is a scalar; row.sum() is not an element
        return not (names_in(node) & loop_names)
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, ARITH) and all(
            _ok(p, subst, loop_names, uses) for p in (node.left, node.right)
        )
    if isinstance(node, cst.UnaryOperation):
        return isinstance(node.operator, (cst.Minus, cst.Plus)) and _ok(node.expression, subst, loop_names, uses)
    if isinstance(node, cst.Comparison):
        # a < b < c chains with ``and``, which arrays cannot do
        return (
            len(node.comparisons) == 1
            and isinstance(node.comparisons[0].operator, COMPARE)
            and _ok(node.left, subst, loop_names, uses)
            and _ok(node.comparisons[0].comparator, subst, loop_names, uses)
        )
    if isinstance(node, cst.BooleanOperation):
        # ``a and b`` returns an operand in Python: equal to ``a & b`` only for booleans
        return all(
            (isinstance(p, (cst.Comparison, cst.BooleanOperation)) or is_null_test(p))
            and _ok(p, subst, loop_names, uses)
            for p in (node.left, node.right)
        )
    if isinstance(node, cst.IfExp):
        return all(_ok(p, subst, loop_names, uses) for p in (node.test, node.body, node.orelse))
    if isinstance(node, cst.Call):
        helpers = _HELPERS.get()
        if helpers is not None and isinstance(node.func, cst.Name) and node.args and all(
                a.keyword is None and not a.star for a in node.args) and helpers(node.func.value) is not None:
            return all(_ok(a.value, subst, loop_names, uses) for a in node.args)
        name = call_name(node)
        head, _, leaf = name.rpartition(".")
        plain_args = len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star
        known = name == "abs" or (head in _MODULES and leaf in UFUNCS) or is_null_test(node)
        return known and plain_args and _ok(node.args[0].value, subst, loop_names, uses)
    return False


class _Rewrite(cst.CSTTransformer):
    def __init__(self, subst: Subst, numpy: Callable[[], str], helpers: Helpers | None = None) -> None:
        super().__init__()
        self.subst = subst
        self.numpy = numpy
        self.helpers = helpers
        self.selects: dict[cst.CSTNode, cst.BaseExpression] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.IfExp):
            chain = _chain(node)
            if chain is not None:  # if/elif/.../else on conditions: np.select reads as the chain did
                tests, values, default = chain
                conds = ", ".join(_code(t.visit(self)) for t in tests)
                choices = ", ".join(_code(v.visit(self)) for v in values)
                other = _code(default.visit(self))
                self.selects[node] = expr(f"{self.numpy()}.select([{conds}], [{choices}], default={other})")
                return False
        return self.subst(node) is None  # a substituted node is replaced whole

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def, override]
        if original_node in self.selects:
            return self.selects[original_node]
        code = self.subst(original_node)
        if code is not None:
            new = expr(code)
            if isinstance(original_node, cst.BaseExpression) and original_node.lpar:
                new = new.with_changes(lpar=original_node.lpar, rpar=original_node.rpar)
            return new
        if isinstance(original_node, cst.Attribute):
            # cfg.v with a loop variable v: the attribute's name is not the variable
            return updated_node.with_changes(attr=original_node.attr)
        twin = (self.helpers(original_node.func.value) if self.helpers is not None and isinstance(
            original_node, cst.Call) and isinstance(original_node.func, cst.Name) else None)
        if twin is not None:  # a notebook helper: its NumPy twin, on the arrays
            return updated_node.with_changes(func=cst.Name(twin))
        if isinstance(updated_node, cst.Call) and call_name(updated_node).startswith("math."):
            fname = call_name(updated_node)[5:]
            return updated_node.with_changes(func=expr(f"{self.numpy()}.{NUMPY_NAMES.get(fname, fname)}"))
        if isinstance(updated_node, cst.BooleanOperation):
            op = "&" if isinstance(updated_node.operator, cst.And) else "|"
            left, right = (_code(_paren(p)) for p in (updated_node.left, updated_node.right))
            return expr(f"({left} {op} {right})")
        if isinstance(updated_node, cst.IfExp):
            parts = ", ".join(_code(p) for p in (updated_node.test, updated_node.body, updated_node.orelse))
            return expr(f"{self.numpy()}.where({parts})")
        return updated_node


def _chain(node: cst.IfExp) -> tuple[list[cst.BaseExpression], list[cst.BaseExpression], cst.BaseExpression] | None:
    """``a if c1 else b if c2 else d`` (three or more outcomes) whose conditions are comparisons:
    (conditions, values, default). np.select needs boolean conditions, so other tests keep np.where."""
    tests: list[cst.BaseExpression] = []
    values: list[cst.BaseExpression] = []
    current: cst.BaseExpression = node
    while isinstance(current, cst.IfExp):
        if not isinstance(current.test, (cst.Comparison, cst.BooleanOperation)) and not is_null_test(current.test):
            return None
        tests.append(current.test)
        values.append(current.body)
        current = current.orelse
    return (tests, values, current) if len(tests) >= 2 else None


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    return node if node.lpar else node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def array_of(iterable: cst.BaseExpression, code: Callable[[cst.CSTNode], str], numpy: Callable[[], str]) -> str | None:
    """NumPy code for the sequence a loop walks: ``range(n)`` -> ``np.arange(n)``, a name -> ``np.asarray``."""
    if isinstance(iterable, cst.Call) and call_name(iterable) == "range":
        if any(a.keyword or a.star for a in iterable.args):
            return None
        return f"{numpy()}.arange({', '.join(code(a.value) for a in iterable.args)})"
    if isinstance(iterable, (cst.Name, cst.Attribute, cst.Subscript)):
        return f"{numpy()}.asarray({code(iterable)})"
    if isinstance(iterable, (cst.List, cst.Tuple)) and all(
        isinstance(e.value, (cst.Integer, cst.Float, cst.UnaryOperation)) for e in iterable.elements
    ):
        return f"{numpy()}.asarray({code(iterable)})"
    # strings, paths, zip(...), generator calls: not a numeric array
    return None
