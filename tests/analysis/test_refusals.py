"""A fixer's refusal is true of the code it refuses: a comprehension is not "no loop"."""

from __future__ import annotations

from aiperf_magic.rules import analyze

MODEL = "import torch\nmodel = torch.nn.Linear(3, 3)\nmodel.eval()\n"


def reasons(source: str) -> dict[str, str | None]:
    return {f.code: (f.fix.reason if f.fix else None) for f in analyze(source, select=["ALL"])}


def test_inference_in_a_comprehension_is_wrapped_not_refused() -> None:
    found = analyze(MODEL + "preds = [model(b).argmax(dim=1) for b in batches]\n", select=["AIP502"])
    assert [f.code for f in found] == ["AIP502"]
    fix = found[0].fix
    assert fix is not None and found[0].fixable
    assert "with torch.inference_mode():\n    preds = [model(b)" in fix.source


def test_compiling_refuses_a_comprehension_by_saying_it_is_one() -> None:
    why = reasons(MODEL + "with torch.no_grad():\n    preds = [model(b) for b in batches]\n").get("AIP506")
    assert why is not None and "comprehension" in why and "no loop" not in why


def test_requests_in_a_comprehension_are_named_as_such() -> None:
    # a list comprehension is mapped over a thread pool; a dict one is refused, and says it is a comprehension
    assert reasons("import requests\nbodies = [requests.get(u, timeout=5).text for u in urls]\n")["AIP402"] is None
    why = reasons("import requests\nbodies = {u: requests.get(u, timeout=5).text for u in urls}\n")["AIP402"]
    assert why is not None and "comprehension" in why
