"""One memory counter read at every sample, its rises and falls given to the lines that ran.

The counter is the process's resident memory (the default mode), tracemalloc's traced bytes
(``--memory`` without memray) or torch's CUDA allocator. Each reading comes with the counter's
high-water mark when the system keeps one (Linux's ``VmHWM``, reset at the start of the cell;
tracemalloc's and the CUDA allocator's peaks): a mark that rose since the last reading means the
counter reached it in between, so a peak shorter than the sampling period is still counted.

A line's ``allocated`` is the most of its rises held at once (as ``--memory`` counts it: a
temporary made and freed on every pass of a loop counts once).

Between two readings the counter rose from its first value to the top (the larger of the two values,
or the new high-water mark) and fell from the top to its second value. The rise was allocated by the
lines running meanwhile: the lines the sampler saw at both readings, half each when they differ
(``Lines``: cell line and its share of the tick, as the hot lines count it). A fall releases the most
recent rises first, whichever line made them (the memory a line still holds is what no later fall
released), which is right for temporaries and for the last array made being the first deleted.

The line running at the peak is the one seen at the reading after it, unless the counter fell again
by more than a tenth of the rise before that reading: then the line that allocated and released it
was the one seen before. The peak is the first moment the counter came within ``NEAR_SHARE`` of its
highest (``Peak``): on a plateau, the few pages a later line adds do not make that line the peak's;
once the counter fell away from it, a later, higher peak is a peak of its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

Lines = Sequence[tuple[int, float]]  # (cell body line, share of the tick)
# A fall after a new peak means the peak's line had ended (released what it made) only when it is
# more than this share of the rise and this many bytes: a page or two returned is not an end.
FELL_SHARE, FELL_BYTES = 0.1, 1024**2
# The peak's moment: the first at which the counter came this close to its highest (a share of how
# far it rose, or these many bytes, whichever is more); new highs closer together are not kept apart.
NEAR_SHARE, NEAR_BYTES = 0.05, 1024**2
COALESCE_BYTES = 256 * 1024
MAX_STACK = 4096  # rises kept in order; past it, the older half is folded by line


class Peak:
    """The counter's highest value, and the line and bytes held at the first moment it came near it."""

    def __init__(self, start: float, near_bytes: float = NEAR_BYTES, coalesce_bytes: float = COALESCE_BYTES) -> None:
        # near_bytes: a counter of pages is never nearer its highest than a page or two of noise
        self.start = self.top = float(start)
        self.near_bytes, self.coalesce_bytes = near_bytes, coalesce_bytes
        self._tops: deque[tuple[float, int | None, dict[int, float]]] = deque()
        self._left = False  # the counter fell away from its highest since: a later high is a new peak

    def _floor(self) -> float:
        return self.top - max(self.near_bytes, NEAR_SHARE * (self.top - self.start))

    def observe(self, value: float) -> None:
        """A value the counter stood at: below the peak's neighbourhood, that peak has ended."""
        if value < self._floor():
            self._left = True

    def offer(self, value: float, line: int | None, held: Callable[[], dict[int, float]]) -> None:
        if value <= self.top:
            return
        self.top = value
        if self._left:
            self._tops.clear()
            self._left = False
        floor = self._floor()
        while len(self._tops) > 1 and self._tops[1][0] < floor:
            self._tops.popleft()  # the floor only rises: the first near the highest is at the front
        if self._tops and self._tops[0][0] < floor:
            self._tops.popleft()
        if not self._tops or value - self._tops[-1][0] >= self.coalesce_bytes:
            self._tops.append((value, line, held()))

    @property
    def line(self) -> int | None:
        return self._tops[0][1] if self._tops else None

    @property
    def held(self) -> dict[int, float]:
        return self._tops[0][2] if self._tops else {}


class CounterLines:
    def __init__(self, value: float, high: float | None = None, *, at_request: bool = False) -> None:
        # at_request: the counter moves when memory is asked for (an allocator's), before the work
        # that fills it; a rise between two different lines then belongs to the second, which began
        self.at_request = at_request
        self.start = self.value = self.peak = float(value)
        self._peak = Peak(value)
        self.high = float(high) if high is not None else None
        self.allocated: dict[int, float] = {}
        self.outside = 0.0  # rises seen while no cell line ran (IPython's own work, before the first line)
        self.last_rise = self.last_fall = 0.0  # how far the counter rose to its top at the last reading, and fell
        self._stack: list[list[float | int | None]] = []  # [line or None, bytes], oldest first
        self._held: dict[int, float] = {}

    def update(self, value: float, high: float | None, before: Lines, after: Lines) -> None:
        """One reading: the counter is ``value`` now (and its high-water mark ``high``); ``before``
        and ``after`` are the lines the sampler saw at the previous reading and at this one."""
        top = max(self.value, value)
        if high is not None:
            if self.high is not None and high > self.high:
                top = max(top, high)  # a new high-water mark: reached between the two readings
            self.high = high if self.high is None else max(self.high, high)
        rise, fall = top - self.value, top - value
        self.last_rise, self.last_fall = rise, fall
        if rise > 0:
            shares = _shares(before, after) if not (self.at_request and _normal(after)) else _shares(after, after)
            if not shares:
                self.outside += rise
                self._push(None, rise)
            for line, share in shares:
                self._push(line, rise * share)
                self.allocated[line] = max(self.allocated.get(line, 0.0), self._held[line])
        if top > self.peak:
            self.peak = top
            fell = fall > max(FELL_SHARE * rise, FELL_BYTES)
            self._peak.offer(top, _running(before, after) if fell else _running(after, before),
                             lambda: {line: b for line, b in self._held.items() if b > 0})
        if fall > 0:
            self._release(fall)
            self._peak.observe(value)
        self.value = value

    @property
    def peak_line(self) -> int | None:
        return self._peak.line

    @property
    def peak_held(self) -> dict[int, float]:
        """line -> bytes of its rises still held at the peak."""
        return self._peak.held

    @property
    def net(self) -> dict[int, float]:
        """Bytes of each line's rises still held at the last reading."""
        return {line: b for line, b in self._held.items() if b > 0}

    def _push(self, line: int | None, amount: float) -> None:
        if self._stack and self._stack[-1][0] == line:
            self._stack[-1][1] += amount  # type: ignore[operator]
        else:
            self._stack.append([line, amount])
            if len(self._stack) > MAX_STACK:
                self._fold()
        if line is not None:
            self._held[line] = self._held.get(line, 0.0) + amount

    def _fold(self) -> None:
        """Bound the record of rises on an hour-long cell whose lines take turns: the older half becomes
        one entry per line (at its latest place), so only old rises lose their exact order."""
        old, recent = self._stack[: MAX_STACK // 2], self._stack[MAX_STACK // 2 :]
        folded: dict[int | None, float] = {}
        for line, amount in old:
            folded[line] = folded.pop(line, 0.0) + float(amount)  # type: ignore[index, arg-type]
        self._stack = [[line, amount] for line, amount in folded.items()] + recent

    def _release(self, amount: float) -> None:
        while amount > 0 and self._stack:
            entry = self._stack[-1]
            line, held = entry[0], float(entry[1])  # type: ignore[arg-type]
            taken = min(held, amount)
            amount -= taken
            if isinstance(line, int):
                self._held[line] -= taken
            if taken >= held:
                self._stack.pop()
            else:
                entry[1] = held - taken


def _shares(before: Lines, after: Lines) -> list[tuple[int, float]]:
    """Who allocated between two readings: the lines seen at both ends, half each when they differ,
    each end's lines by their share of its tick."""
    ends = [_normal(lines) for lines in (before, after)]
    ends = [end for end in ends if end]
    if not ends:
        return []
    if len(ends) == 2 and ends[0] == ends[1]:
        ends = ends[:1]
    out: dict[int, float] = {}
    for end in ends:
        for line, share in end.items():
            out[line] = out.get(line, 0.0) + share / len(ends)
    return sorted(out.items())


def _normal(lines: Lines) -> dict[int, float]:
    total = sum(w for _, w in lines if w > 0)
    out: dict[int, float] = {}
    for line, w in lines:
        if w > 0 and total > 0:
            out[line] = out.get(line, 0.0) + w / total
    return {line: round(share, 9) for line, share in out.items()}


def _running(first: Lines, second: Lines) -> int | None:
    """The line with the largest share at the first end that saw one, else at the second."""
    for lines in (first, second):
        shares = _normal(lines)
        if shares:
            return max(shares.items(), key=lambda item: (item[1], -item[0]))[0]
    return None
