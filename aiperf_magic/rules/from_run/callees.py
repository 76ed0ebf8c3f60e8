"""What the library functions a hot line called say about its work.

The sampler names, for each sample of a line, the first library function inward from it (its
*callee*: ``DataFrame.iterrows``, ``_LocationIndexer.__getitem__``, ``Module._wrapped_call_impl``,
``_BaseDataLoaderIter.__next__``, ``urlopen``); a sample in none was the line's own bytecode or C
code it called directly (NumPy's operators, list lookups, torch's indexing). These prefixes sort the
callees into kinds of work, for the findings that start from the run and for the verdicts' advice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ...report import Hotspot

# a coroutine of the cell suspended at an ``await`` (the sampler names what it awaits: "await Future")
AWAITING = "await "
MODEL_CALLEES = ("Module._wrapped_call_impl", "Module._call_impl", "Tensor.backward", "backward",
                 "Optimizer.", "_disable_dynamo", "GradScaler.")
LOADER_CALLEES = ("_BaseDataLoaderIter.__next__", "_SingleProcessDataLoaderIter", "default_collate", "collate")
PANDAS_CALLEES = ("DataFrame.", "Series.", "NDFrame.", "_LocationIndexer.", "_iLocIndexer.", "_LocIndexer.",
                  "_AtIndexer.", "_iAtIndexer.", "_ScalarAccessIndexer.", "IndexingMixin.", "Index.", "concat",
                  "merge", "GroupBy.")
READ_CALLEES = ("read_csv", "read_table", "read_json", "read_excel", "read_parquet", "TextFileReader.", "_read",
                "loadtxt", "genfromtxt")
WAIT_CALLEES = ("sleep", "urlopen", "get", "post", "request", "Session.", "recv", "recv_into", "readinto",
                "_wait_for_tstate_lock", "wait", "acquire", "result", "select", "poll", "connect", AWAITING)

# pandas called per row: an indexer, a column lookup, a row iterator (not a whole-column method)
PER_ROW_CALLEES = ("_LocationIndexer.", "_iLocIndexer.", "_LocIndexer.", "_AtIndexer.", "_iAtIndexer.",
                   "_ScalarAccessIndexer.", "IndexingMixin.", "Series.__getitem__", "Series.__setitem__",
                   "DataFrame.__getitem__", "DataFrame.__setitem__", "DataFrame.iterrows", "DataFrame.itertuples",
                   "Series._get_value", "DataFrame._get_value", "NDFrame.__getattr__")
APPLY_CALLEES = ("DataFrame.apply", "Series.apply", "Series.map", "DataFrame.map", "DataFrame.applymap", "frame_apply",
                 "FrameApply.", "SeriesApply.", "Series.__getitem__")
# Python's own scalar helpers: one number per call, the work a vectorised draw does for all at once;
# and a tensor walked item by item (``for label in labels``: torch's ``__iter__`` unbinds it into 0-d
# tensors), which is the loop's own per-element work, not a model's
SCALAR_CALLEES = ("Random.", "Tensor.__iter__")
NETWORK_CALLEES = ("urlopen", "get", "post", "put", "request", "Session.", "HTTPConnection.", "HTTPResponse.",
                   "recv", "recv_into", "readinto", "SSLSocket.", "create_connection", "getaddrinfo")
# the methods every HTTP client has under its own class name (urllib3's ``RequestMethods.request``,
# ``PoolManager.urlopen``, a client's ``Client.send``): the verb says the call waits for an answer
NETWORK_METHODS = frozenset({"request", "urlopen", "urlretrieve", "getresponse", "send", "sendall", "recv",
                             "recv_into", "readinto", "create_connection", "getaddrinfo"})


def is_network(label: str) -> bool:
    """A callee that sends a request or reads its answer."""
    return label.startswith(NETWORK_CALLEES) or label.rsplit(".", 1)[-1] in NETWORK_METHODS

KINDS = ("model", "loader", "pandas", "read", "wait", "numpy", "python", "other")


def kinds_of(h: Hotspot) -> dict[str, float]:
    """One line's work by kind, as shares of its samples: each library function its samples were
    in counts for that function's kind; samples in no library function (the line's own bytecode, or
    C code it calls directly: NumPy's operators, list lookups, torch's indexing) count as "python",
    or "wait" on a ``time.sleep`` line."""
    out: defaultdict[str, float] = defaultdict(float)
    total = max(h.samples, sum(h.callees.values()), 1)
    types = " ".join(h.types.values())
    for label, n in h.callees.items():
        out[_kind(label, types)] += n / total
    rest = 1.0 - sum(out.values())
    if rest > 1e-9:
        out["wait" if "sleep" in h.text else "python"] += rest
    return out


def _kind(label: str, types: str) -> str:
    if _starts(label, LOADER_CALLEES):
        return "loader"
    if _starts(label, MODEL_CALLEES):
        return "model"
    if _starts(label, READ_CALLEES):
        return "read"
    if _starts(label, PANDAS_CALLEES) or (label in ("apply", "map") and "pandas" in types):
        return "pandas"
    if _starts(label, WAIT_CALLEES) or is_network(label):
        return "wait"
    if _starts(label, SCALAR_CALLEES):
        return "python"  # random.randint per step, a tensor's items one by one: Python computing one number
    if "." not in label and "numpy" in types:
        return "numpy"  # NumPy's functions are plain names (sum, _mean): a call on the line's arrays
    if "torch" in types:
        return "model"
    return "other"


def _starts(label: str, prefixes: Iterable[str]) -> bool:
    return any(label == p or label.startswith(p) for p in prefixes)


