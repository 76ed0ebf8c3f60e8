"""A tensor built from a Python list of arrays (AIP201 from the run).

``torch.tensor(states)`` where ``states`` is a list or tuple of NumPy arrays (a replay buffer's
sampled transitions, a dataset's rows gathered one by one) does not see the arrays as blocks: it
walks the sequence and reads every element of every array through Python's number protocol (PyTorch
warns that this is extremely slow). ``np.stack`` copies them into one array in C, and
``torch.from_numpy`` shares it without a copy. The sampler read what the name held on the hot line
while the call ran ("tuple of 128 ndarray"), before the line rebound it to the tensor.
"""

from __future__ import annotations

import re

import libcst as cst

from ... import units as fmt
from .run import Explained, Run
from .sites import MIN_SECONDS, MIN_SHARE, Site, counts

BUILDERS = frozenset({"torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor",
                      "torch.DoubleTensor", "torch.IntTensor"})
_PARTS = re.compile(r"^(list|tuple) of ([\d,]+) (ndarray|Tensor)\b")
ADVICE = ("A tensor built from a Python list of arrays reads every element of every array one at a time: stack "
          "them first (torch.from_numpy(np.stack(parts)), or torch.stack for tensors), one copy in C")


def tensor_from_arrays(site: Site, run: Run) -> Explained | None:
    if not counts(site):
        return None
    found: list[tuple[cst.Call, str, str]] = []
    seconds = share = 0.0
    for h in site.lines:
        for call in site.code.calls_on(h.line):
            if call.qname not in BUILDERS or not call.node.args or not isinstance(call.node.args[0].value, cst.Name):
                continue
            name = call.node.args[0].value.value
            held = _PARTS.match(h.locals.get(name, ""))
            if held is None:
                continue
            found.append((call.node, name, h.locals[name]))
            seconds, share = seconds + h.seconds, share + h.share
            break
    if not found or share < MIN_SHARE or seconds < MIN_SECONDS:
        return None
    node, name, held = found[0]
    names = ", ".join(dict.fromkeys(n for _, n, _ in found))
    evidence = (f"{'the lines' if len(found) > 1 else 'the line'} building tensors from {names} took "
                f"{fmt.percent(share)} of the {fmt.seconds(run.wall_s)} cell: torch.tensor() read {name} ({held}) "
                "one element at a time")
    if site.loop_count:
        evidence += f", at each of {site.loop_count:,} iterations"
    return Explained("AIP201", site, node, evidence, {"seconds": round(seconds, 6)}, at=node, advice=ADVICE,
                     fix_reason="not written for you: whether the arrays can be stacked (same shape, dtype) is "
                                "known only at run time; write np.stack and Try it")
