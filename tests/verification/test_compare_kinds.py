"""What kind of thing a value is, for Try's comparison: an HTTP session is a connection, not a result
(a ``requests.Session``'s connection pools differ as soon as threads share it), as files and sockets
are; a deprecated alias of a class (``torch.cuda.amp.GradScaler``) compares with the class it renames
by state."""

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


def test_a_deprecated_alias_compares_with_the_class_it_renames_by_state() -> None:
    base = type("GradScaler", (), {"__module__": "torch.amp.grad_scaler"})
    alias = type("GradScaler", (base,), {"__module__": "torch.cuda.amp.grad_scaler", "__init__": lambda self: None})
    a, b = alias(), base()
    a.scale, b.scale = 2.0, 2.0
    assert first_difference(a, b, "scaler", []) is None
    b.scale = 4.0
    assert (first_difference(a, b, "scaler", []) or "").startswith("scaler.scale")
    more = type("GradScaler", (base,), {"__module__": "x", "step": lambda self: None})  # behaves otherwise
    assert "became" in (first_difference(more(), base(), "scaler", []) or "")


def test_a_deprecation_warning_a_fix_removes_is_not_a_difference() -> None:
    from aiperf_magic.verification.observed import Capture, Observed, output_difference

    def err(text: str) -> Observed:
        cap = Capture()
        cap.write(text)
        return Observed(stderr=cap.printed())

    warned = err("<cell>:4: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated.\n"
                 "  scaler = GradScaler()\nstep 1 done\n")
    assert output_difference(warned, err("step 1 done\n")) is None
    assert output_difference(warned, err("step 2 done\n")) is not None  # the rest is still compared
    user = err("<cell>:4: UserWarning: the data has NaN\n  x = f()\nstep 1 done\n")
    assert output_difference(user, err("step 1 done\n")) is not None  # other warnings are output like any


def test_warnings_compare_by_kind_and_message_not_by_where_they_were_issued() -> None:
    from aiperf_magic.verification.observed import Capture, Observed, output_difference

    def err(text: str) -> Observed:
        cap = Capture()
        cap.write(text)
        return Observed(stderr=cap.printed())

    library = err("/site-packages/torch/cuda/amp/grad_scaler.py:31: UserWarning: CUDA is not available.\n"
                  "  super().__init__(\n")
    assert output_difference(library, err("<cell>:3: UserWarning: CUDA is not available.\n")) is None
    assert output_difference(library, err("<cell>:3: UserWarning: CUDA is available.\n")) is not None
    assert output_difference(library, err("<cell>:3: RuntimeWarning: CUDA is not available.\n")) is not None
