"""A loop in pure Python is seen on its lines by the sampler, even at the instructions CPython 3.11
gives no line (the jump back to the loop's header, where such a loop gives up the GIL)."""

from __future__ import annotations

import sys
import threading
import time

from aiperf_magic.measure.stacks import frame_line

CELL = """
seen = []
for item in items:
    if item not in seen:
        seen.append(item)
"""


def test_every_sample_of_a_module_level_loop_has_a_line_of_the_loop() -> None:
    main = threading.get_ident()
    lines: list[int] = []
    done = threading.Event()

    def sampler() -> None:
        while not done.is_set():
            time.sleep(0.005)
            frame = sys._current_frames()[main]
            if frame.f_code.co_filename == "<loop cell>":
                lines.append(frame_line(frame))

    thread = threading.Thread(target=sampler)
    thread.start()
    try:
        exec(compile(CELL, "<loop cell>", "exec"), {"items": list(range(3_000)) * 3})
    finally:
        done.set()
        thread.join()
    assert lines, "the sampler never saw the loop"
    assert set(lines) <= {3, 4, 5}  # the loop's own lines, never None
