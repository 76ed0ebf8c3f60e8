"""When AIP504's rewrite (``torch.autocast`` around the forward pass and loss) applies.

Two preconditions, each a counterexample met in public code:

- **No loss that CUDA autocast refuses.** ``F.binary_cross_entropy`` and ``nn.BCELoss`` raise
  "unsafe to autocast" under ``torch.autocast("cuda")`` (their float16 form is unstable); the
  loop must switch to ``binary_cross_entropy_with_logits`` / ``BCEWithLogitsLoss`` first, which is
  a change of the model's output, not ours to make.
- **The forward pass and the loss together.** The statements wrapped must contain every model call
  of the step: autocast around the loss alone (the forward pass above it, outside) changes nothing
  but the loss's precision.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ...cell.parsed import ParsedCell
from ...cell.tree import call_name, walk_all
from ..facts import Call, Facts
from ..models import is_model_call

_REFUSED = ("binary_cross_entropy", "BCELoss")
_MODEL_WORDS = ("model", "net", "encoder", "decoder", "generator", "discriminator", "critic")


def autocast_refused(cell: ParsedCell, loop: cst.For, run: Sequence[cst.CSTNode], facts: Facts) -> str | None:
    """Why autocast must not be put around ``run`` (statements of ``loop``'s body), or None."""
    for n in walk_all(loop.body):
        if isinstance(n, cst.Call) and _refused_loss(n, facts):
            return (
                f"the loss {cell.code(n.func)} is binary cross-entropy on probabilities, which CUDA autocast "
                "refuses; use BCEWithLogitsLoss / binary_cross_entropy_with_logits on logits first"
            )
    inside = {id(n) for s in run for n in walk_all(s)}
    in_body = {id(n) for n in walk_all(loop.body)}
    models = [c for c in facts.calls if id(c.node) in in_body and _forward(facts, c)]
    if not models:
        return "no model call among the statements before backward(): autocast must cover the forward pass"
    if any(id(c.node) not in inside for c in models):
        return (
            "the forward pass is not among the statements right before the loss: "
            "autocast around the loss alone does nothing"
        )
    return None


def _forward(facts: Facts, call: Call) -> bool:
    """A model call: known to be a model, or a name used as one (``model(x)``, ``net(x)``)."""
    func = call.node.func
    if is_model_call(facts, call):
        return True
    return isinstance(func, cst.Name) and (
        func.value in facts.model_names or any(w in func.value.lower() for w in _MODEL_WORDS)
    )


def _refused_loss(call: cst.Call, facts: Facts) -> bool:
    name = call_name(call)
    if name.endswith(_REFUSED) and not name.endswith("with_logits"):
        return True
    if isinstance(call.func, cst.Name):  # criterion = nn.BCELoss(), in any cell
        for cell in facts.cells():
            sym = cell.symbols.get(call.func.value)
            made = sym.node if sym is not None else None
            if isinstance(made, cst.Call) and call_name(made).endswith("BCELoss"):
                return True
    return False
