"""AIP503 deprecated-cuda-amp: the detector, its documentation and its fixer."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, expect
from ...fixes.edits import Edits
from ..exprs import dotted_name
from ..facts import Facts
from ..registry import Hit, fixer_for, rule

_REPLACEMENT = {"autocast": '`torch.autocast("cuda", ...)`', "GradScaler": '`torch.amp.GradScaler("cuda")`'}


@rule(
    "AIP503",
    "deprecated-cuda-amp",
    '`torch.cuda.amp` is deprecated: use `torch.autocast("cuda")` and `torch.amp.GradScaler("cuda")`',
)
def deprecated_cuda_amp(facts: Facts) -> Iterator[Hit]:
    """
    ## What it does
    Flags imports and uses of `torch.cuda.amp.autocast` and `torch.cuda.amp.GradScaler`,
    however they are spelled (`from torch.cuda.amp import autocast`, `amp.GradScaler()`).

    ## Why is this bad?
    Since PyTorch 2.4 both warn on every construction (`FutureWarning`) and will be removed.
    The device-generic `torch.autocast("cuda", dtype=...)` also lets the dtype be chosen:
    `bfloat16` needs no `GradScaler` at all on Ampere and newer GPUs. With torch 2.13, 10
    constructions of each raised 20 `FutureWarning`s (`benchmarks/traps/AIP503.py`).
    This is hygiene more than speed: the deprecated spelling is not itself slower.

    ## Example
    ```python
    from torch.cuda.amp import autocast, GradScaler
    scaler = GradScaler()
    with autocast():
        loss = criterion(model(x), y)
    ```

    ## Use instead
    ```python
    scaler = torch.amp.GradScaler("cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        loss = criterion(model(x), y)
    ```

    ## Fix safety
    Safe: the new spellings are the same classes with the device made explicit.

    ## References
    - Seed article, chapter 1 ("mixed precision not enabled" — its example uses these names).
    - PyTorch: "Automatic Mixed Precision package - torch.amp".
    """
    for node in facts.deprecated:
        name = node.name if isinstance(node, cst.ImportAlias) else node
        leaf = (dotted_name(name) or "").rsplit(".", 1)[-1]
        yield (
            node,
            (
                f"`torch.cuda.amp.{leaf}` is deprecated (FutureWarning since PyTorch 2.4): "
                f"use {_REPLACEMENT.get(leaf, '`torch.amp`')}"
            ),
        )


@fixer_for("AIP503", "Use the torch.amp API")
def fix_amp(cell: ParsedCell, node: cst.CSTNode, facts: Facts) -> Edits | str:
    edits = Edits('Use torch.amp.autocast("cuda", ...) and torch.amp.GradScaler("cuda")')
    imp = next((a for a in cell.ancestors(node) if isinstance(a, cst.ImportFrom)), None)
    if isinstance(imp, cst.ImportFrom) and imp.module is not None and cell.code(imp.module).endswith("cuda.amp"):
        if isinstance(imp.names, cst.ImportStar):
            return "from torch.cuda.amp import * hides which names are used"
        edits.replace[imp.module] = cst.parse_expression(cell.code(imp.module)[: -len("cuda.amp")] + "amp")
        local = {(a.asname.name.value if a.asname else a.name.value): a.name.value for a in imp.names}  # type: ignore[union-attr]
        for use in cell.nodes(cst.Call):
            func = use.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value in local:
                edits.replace[use] = _new_call(use, cell.code(func), local[func.value])  # type: ignore[arg-type]
        return edits
    parent = cell.parent(node)
    call = (
        None
        if parent is None
        else expect(
            parent,
            cst.Call,
            where=lambda n: n.func is node and call_name(n).rsplit(".", 1)[-1] in ("autocast", "GradScaler"),
        )
    )
    if not isinstance(call, cst.Call):
        return "no torch.cuda.amp use on the finding's line that is called"
    name = call_name(call)
    kind = name.rsplit(".", 1)[-1]
    first = call.args[0] if call.args else None
    if ("." in name and not name.endswith("cuda.amp." + kind)) or (
        first is not None and first.keyword is None and isinstance(first.value, cst.SimpleString)
    ):
        # torch.amp.autocast("cuda") / torch.autocast(...) is already the current API
        return "the call already uses the torch.amp API"
    if name.endswith("cuda.amp." + kind):
        func = name[: -len("cuda.amp." + kind)] + "amp." + kind
    else:  # imported in another cell: spell out the module so the new signature is the one called
        func = f"{edits.need(cell, 'torch')}.amp.{kind}"
    edits.replace[call] = _new_call(call, func, kind)
    return edits


_AUTOCAST_ORDER = ("enabled", "dtype", "cache_enabled")  # torch.cuda.amp.autocast's positional order


def _new_call(call: cst.Call, func: str, kind: str) -> cst.Call:
    args = list(call.args)
    if kind == "autocast":
        # torch.amp.autocast(device_type, dtype, enabled, ...) orders its parameters differently
        args = [
            a.with_changes(
                keyword=cst.Name(_AUTOCAST_ORDER[i]),
                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
            )
            if a.keyword is None and i < 3
            else a
            for i, a in enumerate(args)
        ]
    first = cst.Arg(
        cst.SimpleString('"cuda"'),
        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if args else cst.MaybeSentinel.DEFAULT,
    )
    return call.with_changes(func=cst.parse_expression(func), args=[first, *args])
