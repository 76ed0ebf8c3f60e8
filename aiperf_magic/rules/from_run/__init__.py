"""Findings that start from the run (``%%aiperf``): where the time went, then why.

The static rules match shapes of code; on code nobody here wrote, the same trap takes a hundred
shapes. After a measured cell, this package starts from the evidence instead: the lines every
thread spent its time on (the cell's, and those of functions defined in earlier cells or the user's
modules), what each line called (a pandas indexer, ``DataFrame.apply``, a DataLoader's ``__next__``,
a socket read), how many times its loop ran and what the names on it held. For each place that
took a real share of the cell (a *site*, :mod:`.sites`), it asks the code and those facts why
(:mod:`.shapes`, :mod:`.loading`), and reports the trap on the line that costs, quoting the numbers.
A static rule of the same code names the trap and rewrites it: a finding it already made there is
given the evidence; where it stayed silent (a loop whose bounds are a function's parameters, a
helper from an earlier cell, a body of several statements), the finding is added and the rule's
fixer is asked for its rewrite all the same (:mod:`.merge`).
"""

from __future__ import annotations

from .judge import weigh_frames
from .merge import findings_from_run

__all__ = ["findings_from_run", "weigh_frames"]
