"""The state a value is compared by when it is not compared as data: random generators (NumPy,
``random``, torch) by where they are in their stream, objects without their own ``__eq__`` (and
dataclasses) by what they hold: ``__dict__``, ``__slots__``, or what they pickle.
"""

from __future__ import annotations

import random
import sys
from dataclasses import fields, is_dataclass
from typing import Any


def rng_state(v: Any) -> Any:
    """The state of a random generator (NumPy, ``random``, torch), or None for anything else."""
    if isinstance(v, random.Random):
        try:
            return v.getstate()
        except NotImplementedError:  # SystemRandom has none: it draws from the OS
            return None
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(v, np.random.Generator):
            return v.bit_generator.state
        if isinstance(v, np.random.RandomState):
            return v.get_state(legacy=False)
        if isinstance(v, np.random.BitGenerator):
            return v.state
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(v, torch.Generator):
        return str(v.device), v.get_state()
    return None


def state_of(v: Any) -> dict[str, Any] | None:
    """What an object without its own ``__eq__`` holds: its ``__dict__`` and slots, or its pickle state."""
    out: dict[str, Any] = {}
    if is_dataclass(v):
        return {f.name: getattr(v, f.name, None) for f in fields(v)}
    d = getattr(v, "__dict__", None)
    if isinstance(d, dict):
        out.update(d)
    for cls in type(v).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for s in (slots,) if isinstance(slots, str) else slots:
            if s not in ("__dict__", "__weakref__") and s not in out:
                out[s] = getattr(v, s, "<unset>")
    if out or isinstance(d, dict):
        return out
    try:
        reduced = v.__reduce_ex__(4)
    except Exception:
        return None
    if isinstance(reduced, str):
        return {"the global it names": reduced}
    parts = list(reduced) + [None] * (5 - len(reduced))
    maker = getattr(parts[0], "__qualname__", repr(parts[0]))
    return {
        "how it is made": maker,
        "arguments": parts[1],
        "state": parts[2],
        "items": list(parts[3]) if parts[3] is not None else None,
        "entries": list(parts[4]) if parts[4] is not None else None,
    }
