"""``python -m aiperf_magic lint PATH...``: the same as the ``aiperf`` command."""

from .cli import main

raise SystemExit(main())
