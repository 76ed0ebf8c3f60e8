"""What kind of work a piece of code does: CPU-bound Python, blocking I/O, GPU training.

Shared by the concurrency rules (is a thread's target CPU-bound?) and the torch rules (does this
cell use CUDA, compile its model, use autocast?), and remembered across notebook cells.
"""

from __future__ import annotations

import inspect
import re
import textwrap
import types
from functools import lru_cache
from typing import TYPE_CHECKING

import libcst as cst

from ..cell.parsed import parse_module
from .exprs import looks_like_device
from .symbols import COMPILERS

if TYPE_CHECKING:
    from .facts import Call, Facts, Scope

NETWORK_CALLS = frozenset(
    [f"requests.{m}" for m in ["get", "post", "put", "patch", "delete", "head", "request"]]
    + [f"httpx.{m}" for m in ["get", "post", "put", "patch", "delete", "head", "request", "stream"]]
    + [
        "urllib.request.urlopen",
        "urllib.request.urlretrieve",
        "socket.create_connection",
        "boto3.client",
        "subprocess.run",
        "subprocess.check_output",
        "time.sleep",
    ]
)
_SESSION_METHODS = frozenset(["get", "post", "put", "patch", "delete", "head", "request"])
_IO_METHODS = frozenset(
    [
        "read",
        "write",
        "readline",
        "readlines",
        "read_text",
        "read_bytes",
        "write_text",
        "write_bytes",
        "recv",
        "send",
        "sendall",
        "urlopen",
        "download_file",
        "upload_file",
        "fetch",
        "fetchall",
        "execute",
        "sleep",
    ]
)
AUTOCASTS = frozenset({"torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast"})
_EXPORTERS = frozenset(
    {
        "torch.onnx.export",
        "torch.onnx.dynamo_export",
        "torch.export.export",
        "onnxruntime.InferenceSession",
        "torch_tensorrt.compile",
    }
)


def is_network_call(facts: Facts, call: Call) -> bool:
    if call.qname in NETWORK_CALLS and call.qname != "time.sleep":
        return True
    return call.method in _SESSION_METHODS and facts.kind(call.receiver) == "http_session"


# Client libraries of remote services: their calls wait on the network like requests.get does.
_REMOTE_PACKAGES = (
    "openai.", "anthropic.", "cohere.", "pinecone.", "boto3.", "botocore.", "google.cloud.", "sagemaker.",
    "voyageai.", "elasticsearch.", "weaviate.", "qdrant_client.", "chromadb.", "pymongo.", "redis.", "replicate.",
    "huggingface_hub.", "mistralai.", "groq.", "together.", "langchain", "llama_index.",
)
_REMOTE_METHODS = frozenset(
    {"create", "embed", "upsert", "invoke", "complete", "completion", "urlretrieve", "download", "upload", "predict"}
)
_REMOTE_OWNERS = ("client", "api", "predictor", "endpoint", "index", "collection", "bucket", "s3", "llm", "chain")


def is_remote_call(facts: Facts, call: Call) -> bool:
    """A call that waits for a remote service: HTTP libraries, or the client of an API
    (``client.messages.create(...)``, ``predictor.predict(...)``, ``index.upsert(...)``)."""
    if is_network_call(facts, call):
        return True
    if call.qname and call.qname.startswith(_REMOTE_PACKAGES):
        return True
    if call.method is None:
        return False
    root = call.receiver
    while isinstance(root, (cst.Attribute, cst.Call, cst.Subscript)):
        root = root.func if isinstance(root, cst.Call) else root.value
    owner = root.value.lower() if isinstance(root, cst.Name) else ""
    if owner == "self" and isinstance(call.receiver, cst.Attribute):
        owner = _first_attr(call.receiver).lower()
    if owner.endswith("client"):
        return True  # an API client: its methods are requests (``client.search``, ``client.messages.create``)
    return call.method in _REMOTE_METHODS and any(part in _REMOTE_OWNERS for part in re.split(r"[_\d]+", owner))


def _first_attr(node: cst.Attribute) -> str:
    while isinstance(node.value, cst.Attribute):
        node = node.value
    return node.attr.value


def is_io_call(facts: Facts, call: Call) -> bool:
    if call.qname in NETWORK_CALLS or call.qname == "builtins.open" or is_remote_call(facts, call):
        return True
    return (
        bool(call.qname and call.qname.startswith(("requests.", "httpx.", "aiohttp.", "socket.", "boto3.", "urllib.")))
        or call.method in _IO_METHODS
    )


def function_work(facts: Facts, scope: Scope, depth: int = 0) -> str:
    """ "io" when the function does I/O, "cpu" when it loops in Python without I/O, else "other"."""
    calls = list(facts.calls_in(scope))
    if any(is_io_call(facts, c) for c in calls):
        return "io"
    if any(loop.scope is scope for loop in facts.loops):
        return "cpu"
    for call in calls:
        if isinstance(call.node.func, cst.Name):
            name = call.node.func.value
            if name in facts.functions and depth < 3 and facts.functions[name] is not scope:
                work = function_work(facts, facts.functions[name], depth + 1)
            else:
                work = facts.earlier_functions.get(name, "other")
            if work != "other":
                return work
    return "other"


def work_of_name(facts: Facts, node: cst.BaseExpression | None) -> str:
    """What the function called ``node`` does: defined in the cell, an earlier cell, or live."""
    if not isinstance(node, cst.Name):
        return "other"
    scope = facts.functions.get(node.value)
    if scope is not None:
        return function_work(facts, scope)
    if node.value in facts.earlier_functions:
        return str(facts.earlier_functions[node.value])
    func = definition(facts, node.value)
    if func is None:
        return "other"
    from .collector import Collector  # a function from the namespace: gather its facts on their own

    sub = Collector(cst.Module(body=[func]), facts.names, dict(facts.symbols))
    sub.facts.earlier_functions = facts.earlier_functions
    sub.walk(sub.facts.module)
    return function_work(sub.facts, sub.facts.functions[func.name.value])


def calls_network(facts: Facts, node: cst.BaseExpression | None, depth: int = 0) -> bool:
    """The function called ``node`` (of the cell, an earlier cell, or live) waits on the network,
    itself or through another function of the notebook."""
    if not isinstance(node, cst.Name) or depth > 2:
        return False
    func = definition(facts, node.value)
    if func is None or func.asynchronous is not None:
        return False  # calling an ``async def`` only makes a coroutine: nothing waits here
    from .collector import Collector

    sub = Collector(cst.Module(body=[func]), facts.names, dict(facts.symbols))
    sub.facts.earlier_defs = facts.earlier_defs
    sub.walk(sub.facts.module)
    for call in sub.facts.calls:
        if is_remote_call(sub.facts, call):
            return True
        inner = call.node.func
        if isinstance(inner, cst.Name) and inner.value != node.value and calls_network(facts, inner, depth + 1):
            return True
    return False


def definition(facts: Facts, name: str) -> cst.FunctionDef | None:
    """The ``def`` of a function: in this cell, an earlier notebook cell, or (``%%aiperf``) the
    live function's source, which IPython keeps for every cell it ran."""
    scope = facts.functions.get(name)
    if scope is not None and isinstance(scope.node, cst.FunctionDef):
        return scope.node
    if name in facts.earlier_defs:
        return facts.earlier_defs[name]
    obj = facts.names.live(name)
    return _parse_function(obj.__code__) if isinstance(obj, types.FunctionType) else None


@lru_cache(maxsize=256)
def _parse_function(code: types.CodeType) -> cst.FunctionDef | None:
    try:
        module = parse_module(textwrap.dedent(inspect.getsource(code)))
    except (OSError, TypeError, ValueError, cst.ParserSyntaxError):  # no source, a decorator line cut, too deep
        return None
    first = module.body[0] if module.body else None
    return first if isinstance(first, cst.FunctionDef) else None


def is_move(call: Call) -> bool:
    """``x.cuda()`` or ``x.to(device)`` (not ``x.to(torch.float16)`` nor ``x.to("cpu")``)."""
    if call.method == "cuda":
        return True
    if call.method != "to":
        return False
    arg = call.kwarg("device") or call.positional(0)
    return arg is not None and looks_like_device(arg.value)


def notebook_flags(cells: list[Facts]) -> set[str]:
    """The flags of every cell of a notebook together (see :func:`cell_flags`)."""
    return set().union(*(cell_flags(cell) for cell in cells))


def cell_flags(facts: Facts) -> set[str]:
    """Facts about the whole cell: "cuda" (targets a GPU), "compile", "autocast", "train"."""
    flags = set(facts.earlier_flags)
    if any(s.startswith("cuda") for s in facts.strings):
        flags.add("cuda")
    for call in facts.calls:
        if call.method == "cuda" or (call.qname or "").startswith("torch.cuda.") or is_move(call):
            flags.add("cuda")
        if call.qname in COMPILERS or call.qname in _EXPORTERS:
            flags.add("compile")
        if call.qname in AUTOCASTS:
            flags.add("autocast")
        if call.method == "backward":
            flags.add("train")
    return flags
