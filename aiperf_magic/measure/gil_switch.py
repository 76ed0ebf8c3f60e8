"""The interpreter's switch interval while a cell's lines are sampled.

The sampling thread needs the GIL to read the cell's stack. When the cell's thread hands the GIL back
of its own accord (a sleep, a NumPy copy, I/O), the sampler gets it at once; when Python code holds
it, the sampler waits until the switch interval (5 ms by default) has passed and the interpreter
makes that code let go. A tick due while Python code ran was therefore taken at the next line that
hands the GIL back whenever that came within 5 ms: a loop alternating 3.6 ms of Python with a 1 ms
sleep gave the sleep 100 % of the samples for 22 % of the time (``benchmarks/sampler_bias.py``).
With a shorter interval the sampler waits at most that long, so a tick lands where the Python code
was; only Python stretches shorter than it between two hand-overs still count for the line that
hands the GIL back.

``SwitchInterval.lower`` sets ``LOW_S`` (0.5 ms) for a cell whose user code runs on its own thread
only; ``restore`` puts the user's interval back, at the cell's end, and as soon as a thread the cell
started is seen (threads that take turns under the GIL would then switch ten times as often, which
would change how fast they run). A user who sets an interval of their own during the cell keeps it.
A child forked meanwhile gets the user's interval back (``os.register_at_fork``). With one thread,
the only thread that ever waits for the GIL is the sampler, once a tick: a shorter interval makes
no other switch. ``sys.getswitchinterval()`` inside the cell reads ``LOW_S`` (the one difference a
cell can see); 0.5 ms leaves the sampler time to read the stacks and memory counters before the
cell's thread, waiting in turn, takes the GIL back.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

LOW_S = 0.0005
ENABLED = True  # False: the user's interval is left as it is (benchmarks compare)


class SwitchInterval:
    def __init__(self, low_s: float = LOW_S, get: Callable[[], float] = sys.getswitchinterval,
                 set_: Callable[[float], None] = sys.setswitchinterval) -> None:
        self.low_s = low_s
        self._get, self._set = get, set_
        self.saved: float | None = None  # the user's interval, while ours is set
        self._ours: float | None = None  # ours as the interpreter stores it (whole microseconds)

    @property
    def lowered(self) -> bool:
        return self.saved is not None

    def lower(self) -> None:
        current = self._get()
        if not ENABLED or self.saved is not None or current <= self.low_s:
            return  # already ours, or the user's is as short
        self._set(self.low_s)
        self.saved, self._ours = current, self._get()
        _LOWERED.append(self)

    def restore(self) -> None:
        if self.saved is None:
            return
        saved, self.saved = self.saved, None
        if self in _LOWERED:
            _LOWERED.remove(self)
        if self._get() == self._ours:  # else the user set one of their own meanwhile: theirs stays
            self._set(saved)


_LOWERED: list[SwitchInterval] = []


def _in_child() -> None:
    """A child forked during a cell is not sampled: it runs with the user's interval."""
    for switch in list(_LOWERED):
        switch.restore()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_in_child)
