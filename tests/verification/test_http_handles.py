"""An HTTP session is a connection, not a result: Try does not compare a ``requests.Session`` (its
connection pools differ as soon as threads share it), as it does not compare files or sockets; what
the cell computed from its responses is compared."""

from __future__ import annotations

import pytest

from aiperf_magic.verification.compare import first_difference, is_handle

requests = pytest.importorskip("requests")


def test_a_session_and_its_pools_are_handles() -> None:
    a, b = requests.Session(), requests.Session()
    b.headers["X-Seen"] = "1"
    b.get_adapter("http://example.com").poolmanager.connection_from_host("example.com", 80)
    assert is_handle(a) and first_difference(a, b, "session", []) is None
    assert first_difference({"stars": [3, 1]}, {"stars": [3, 2]}, "out", []) is not None  # the data still is
