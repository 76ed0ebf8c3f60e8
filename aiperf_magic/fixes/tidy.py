"""What a reviewer would ask to remove from a rewrite: scaffolding the old shape needed and the new
one does not. Applied to the statements a fix wrote, beside the statement just before them; the
user's own code elsewhere is never touched.

- ``out = []`` directly followed by the rewrite's ``out.extend(E)`` becomes ``out = list(E)``
  (``out = E`` when ``E`` is already a new list: ``....tolist()``, ``list(...)``, ``sorted(...)``).
  The name keeps its value and its type, a list, so every cell after it reads what it read before.
  The same when the ``extend`` is the first statement of the ``with`` block that follows (a pool).
- ``seen = []`` directly followed by the rewrite's ``seen_set = set(seen)`` builds ``set()``.
- ``df["z"] = <constant>`` directly followed by the rewrite's ``df["z"] = E`` is a dead store when
  ``E`` reads ``df`` only through other columns (``df["a"]``): the column ends as ``E`` made it,
  at the same position, and the first store is dropped.

Comments on a dropped line move to the statement that takes its place.
"""

from __future__ import annotations

import libcst as cst

_NEW_LISTS = frozenset({"list", "sorted"})


def tidy(code: str, original: str) -> str:
    """``code`` (a few statements of a cell) with the scaffolding described above removed; only
    statements the fix wrote (whose text is not in ``original``, the cell before the fix) are
    merged or kept over."""
    try:
        module = cst.parse_module(code)
    except cst.ParserSyntaxError:
        return code
    tidier = _Tidier(module, original)
    new = module.visit(tidier)
    return new.code if tidier.changed else code


class _Tidier(cst.CSTTransformer):
    def __init__(self, module: cst.Module, original: str) -> None:
        self.module = module
        self.original = original
        self.changed = False

    def _new(self, node: cst.SimpleStatementLine) -> bool:
        return self.module.code_for_node(node.with_changes(leading_lines=[])).strip() not in self.original

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self._block(list(updated.body)))

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=self._block(list(updated.body)))

    def _block(self, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for statement in body:
            merged = self._merge(out[-1], statement) if out else None
            if merged is None:
                out.append(statement)
                continue
            self.changed = True
            if isinstance(merged, list):  # both stay, the second one simpler
                out.append(merged[1])
                continue
            lead = [*getattr(out[-1], "leading_lines", ()), *getattr(merged, "leading_lines", ())]
            out[-1] = merged.with_changes(leading_lines=lead)
        return out

    def _merge(self, first: cst.BaseStatement, second: cst.BaseStatement
               ) -> cst.BaseStatement | list[cst.BaseStatement] | None:
        """What stands for ``first`` followed by ``second`` once tidied, or None to keep both."""
        store = _single(first)
        if store is None:
            return None
        target, value = store
        small = second.body[0] if isinstance(second, cst.SimpleStatementLine) and len(second.body) == 1 else None
        if (isinstance(target, cst.Name) and _empty_list(value)
                and small is not None and _set_of(small, target.value) and self._new(second)):
            # seen = [] then seen_set = set(seen): the set starts empty too; the user's line stays as written
            assert isinstance(second, cst.SimpleStatementLine) and isinstance(small, cst.Assign)
            return [first, second.with_changes(body=[small.with_changes(value=cst.parse_expression("set()"))])]
        if _trailing_comment(first):
            return None
        if isinstance(second, cst.With) and isinstance(second.body, cst.IndentedBlock) and second.body.body:
            inner = self._merge(first, second.body.body[0])
            if inner is None:
                return None
            return second.with_changes(body=second.body.with_changes(body=[inner, *second.body.body[1:]]))
        if not isinstance(second, cst.SimpleStatementLine) or len(second.body) != 1 or not self._new(second):
            return None
        small = second.body[0]
        if isinstance(target, cst.Name) and _empty_list(value):
            items = _extended(small, target.value)
            if items is None:
                return None
            fresh = items if _is_new_list(items) else cst.Call(cst.Name("list"), [cst.Arg(items)])
            return second.with_changes(body=[cst.Assign([cst.AssignTarget(target)], fresh)])
        if _is_column(target) and _constant(value) and isinstance(small, cst.Assign) and len(small.targets) == 1:
            again = small.targets[0].target
            if _same(again, target) and _reads_only_other_columns(small.value, target):
                return second
        return None


def _single(node: cst.BaseStatement) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        small = node.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            return small.targets[0].target, small.value
    return None


def _trailing_comment(node: cst.BaseStatement) -> bool:
    trailing = getattr(node, "trailing_whitespace", None)
    return trailing is not None and trailing.comment is not None


def _extended(small: cst.BaseSmallStatement, name: str) -> cst.BaseExpression | None:
    """``E`` of ``name.extend(E)``."""
    if not isinstance(small, cst.Expr) or not isinstance(small.value, cst.Call):
        return None
    call = small.value
    func = call.func
    if (isinstance(func, cst.Attribute) and func.attr.value == "extend" and isinstance(func.value, cst.Name)
            and func.value.value == name and len(call.args) == 1 and call.args[0].keyword is None
            and not call.args[0].star and not _mentions(call.args[0].value, name)):
        return call.args[0].value
    return None


def _empty_list(node: cst.BaseExpression) -> bool:
    """``[]`` or ``list()``."""
    if isinstance(node, cst.List):
        return not node.elements
    func = node.func if isinstance(node, cst.Call) else None
    return isinstance(func, cst.Name) and func.value == "list" and not node.args  # type: ignore[union-attr]


def _set_of(small: cst.BaseSmallStatement, name: str) -> bool:
    """``other = set(name)``."""
    value = small.value if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
    return (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "set"
            and len(value.args) == 1 and isinstance(value.args[0].value, cst.Name)
            and value.args[0].value.value == name and isinstance(small.targets[0].target, cst.Name))  # type: ignore[union-attr]


def _is_new_list(node: cst.BaseExpression) -> bool:
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "tolist" and not node.args:
        return True
    return isinstance(func, cst.Name) and func.value in _NEW_LISTS


def _is_column(node: cst.BaseExpression) -> bool:
    return (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)
            and isinstance(node.slice[0].slice.value, cst.SimpleString))


def _key(node: cst.Subscript) -> str:
    index = node.slice[0].slice
    assert isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)
    return str(index.value.evaluated_value)


def _same(a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    return (_is_column(a) and _is_column(b) and isinstance(a, cst.Subscript) and isinstance(b, cst.Subscript)
            and isinstance(a.value, cst.Name) and isinstance(b.value, cst.Name) and a.value.value == b.value.value
            and _key(a) == _key(b))


def _constant(node: cst.BaseExpression) -> bool:
    """A value with no effects to keep: a number, a string, None/True/False, ``np.nan``, ``-1``."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("None", "True", "False")
    if isinstance(node, cst.UnaryOperation):
        return _constant(node.expression)
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value in ("nan", "NaN")


def _reads_only_other_columns(value: cst.BaseExpression, column: cst.BaseExpression) -> bool:
    """``value`` names the frame only as ``frame["other"]``: it cannot read the stored column."""
    assert isinstance(column, cst.Subscript) and isinstance(column.value, cst.Name)
    frame, key = column.value.value, _key(column)
    allowed: set[int] = set()
    ok = True

    class Reads(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == frame and _is_column(node) \
                    and _key(node) != key:
                allowed.add(id(node.value))

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal ok
            if node.value == frame and id(node) not in allowed:
                ok = False

    value.visit(Reads())
    return ok


def _mentions(node: cst.CSTNode, name: str) -> bool:
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value == name

    node.visit(Names())
    return found
