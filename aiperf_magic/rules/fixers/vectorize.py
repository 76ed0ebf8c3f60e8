"""Turn a per-element Python expression into one whole-array (NumPy / pandas) expression.

Only a small, closed language is accepted: numbers, arithmetic, comparisons, ``abs`` and the
``math`` functions NumPy has under the same name, names from outside the loop (scalars), and the
element itself (which ``subst`` rewrites into the whole array or column). Anything else, such as
a call that could have side effects or a ``x if c else y`` that NumPy evaluates on both branches,
means no rewrite.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ...fixes.base import call_name, expr, names_in

MATH = {"sqrt", "exp", "log", "log10", "log2", "log1p", "expm1", "sin", "cos", "tan", "tanh", "fabs"}
ARITH = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
COMPARE = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)

# node -> replacement code for the element (e.g. ``row["a"]`` -> ``df["a"]``), or None to keep the node
Subst = Callable[[cst.CSTNode], "str | None"]


def vectorise(node: cst.BaseExpression, subst: Subst, loop_names: set[str], numpy: Callable[[], str]) -> str | None:
    """The whole-array form of ``node``, or None when it leaves the accepted language.

    ``loop_names`` are names bound per element (the loop target, a row); they must be consumed by
    ``subst``. ``numpy`` returns the name to write for NumPy (importing it only when used).
    """
    uses: list[bool] = []
    if not _ok(node, subst, loop_names, uses) or not uses:
        # no element in the expression: ``[0 for _ in xs]`` is not element-wise arithmetic
        return None
    out = node.visit(_Rewrite(subst, numpy))
    assert isinstance(out, cst.CSTNode)
    return cst.Module(body=[]).code_for_node(out)


def _ok(node: cst.CSTNode, subst: Subst, loop_names: set[str], uses: list[bool]) -> bool:
    if subst(node) is not None:
        uses.append(True)
        return True
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.Name):
        return node.value not in loop_names and node.value not in ("None",)
    if isinstance(node, (cst.Attribute, cst.Subscript)):
        # cfg.scale or weights[0] from outside the loop is a scalar; row.sum() is not an element
        return not (names_in(node) & loop_names)
    if isinstance(node, cst.BinaryOperation):
        return (
            isinstance(node.operator, ARITH)
            and _ok(node.left, subst, loop_names, uses)
            and _ok(node.right, subst, loop_names, uses)
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
    if isinstance(node, cst.Call):
        name = call_name(node)
        plain_args = len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star
        element_wise = name == "abs" or (name.startswith("math.") and name[5:] in MATH)
        return element_wise and plain_args and _ok(node.args[0].value, subst, loop_names, uses)
    return False


class _Rewrite(cst.CSTTransformer):
    def __init__(self, subst: Subst, numpy: Callable[[], str]) -> None:
        super().__init__()
        self.subst = subst
        self.numpy = numpy

    def on_visit(self, node: cst.CSTNode) -> bool:
        return self.subst(node) is None  # a substituted node is replaced whole

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def, override]
        code = self.subst(original_node)
        if code is not None:
            new = expr(code)
            if isinstance(original_node, cst.BaseExpression) and original_node.lpar:
                new = new.with_changes(lpar=original_node.lpar, rpar=original_node.rpar)
            return new
        if isinstance(original_node, cst.Attribute):
            # cfg.v with a loop variable v: the attribute's name is not the variable
            return updated_node.with_changes(attr=original_node.attr)
        if isinstance(updated_node, cst.Call) and call_name(updated_node).startswith("math."):
            fname = call_name(updated_node)[5:]
            return updated_node.with_changes(func=expr(f"{self.numpy()}.{'abs' if fname == 'fabs' else fname}"))
        return updated_node


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
