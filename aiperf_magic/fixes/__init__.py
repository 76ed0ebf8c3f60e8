"""The edit machinery fixers use: :class:`~.edits.Edits` (what one fix changes), the one pass that
applies them to a cell, the diff, and the compile check. The fixers themselves live beside their
detectors in :mod:`aiperf_magic.rules`; ``aiperf_magic.fix`` is the public entry point."""
