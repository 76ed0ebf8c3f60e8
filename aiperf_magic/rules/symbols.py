"""What a variable holds: a loader, a frame, a model, a numeric list, ...

Inferred from the expression assigned to it in the cell (or an earlier cell), or, inside
``%%aiperf``, from the live object in the namespace. Kinds are deliberately coarse: the rules ask
"is this a DataFrame?", never for a full type.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import libcst as cst

from .exprs import looks_like_device
from .names import dotted, type_names
from .sizes import array_size, is_number, literal_args, range_size

if TYPE_CHECKING:
    from .facts import Facts


@dataclass(frozen=True)
class Symbol:
    kind: str
    node: cst.CSTNode | None = None  # the expression (usually a call) that made it
    bases: tuple[str, ...] = ()  # for classes
    numeric: bool = False  # for sequences: holds numbers
    size: int | None = None  # for literals: number of elements
    tiny: bool = False  # a small frame for display (``df.head()``, a literal frame)
    obj: Any = None  # the live object, when known from the namespace
    low_precision: bool = False  # a model already cast to half/bfloat16
    gpu: bool = False  # a model or tensor moved to an accelerator (``.cuda()``, ``.to(device)``)


# Subclasses of torch's DataLoader in graph libraries: the same num_workers argument.
GRAPH_LOADERS = frozenset(
    {
        "torch_geometric.loader.DataLoader",
        "torch_geometric.data.DataLoader",
        "torch_geometric.loader.NeighborLoader",
        "torch_geometric.loader.LinkNeighborLoader",
        "torch_geometric.loader.DenseDataLoader",
        "dgl.dataloading.GraphDataLoader",
        "dgl.dataloading.DataLoader",
    }
)
LOADERS = frozenset({"torch.utils.data.DataLoader", "monai.data.DataLoader"}) | GRAPH_LOADERS
FRAME_MAKERS = frozenset(
    f"pandas.{n}"
    for n in [
        "read_csv",
        "read_parquet",
        "read_json",
        "read_excel",
        "read_feather",
        "read_sql",
        "read_table",
        "read_pickle",
        "DataFrame",
        "concat",
        "merge",
    ]
)
COMPILERS = frozenset({"torch.compile", "torch.jit.trace", "torch.jit.script", "torch.jit.load"})
THREAD_POOLS = frozenset(
    {"concurrent.futures.ThreadPoolExecutor", "multiprocessing.pool.ThreadPool", "multiprocessing.dummy.Pool"}
)
PROCESS_POOLS = frozenset(
    {"concurrent.futures.ProcessPoolExecutor", "multiprocessing.Pool", "multiprocessing.pool.Pool"}
)
DASK_CLIENTS = frozenset({"distributed.Client", "distributed.get_client", "distributed.default_client"})
HTTP_SESSIONS = frozenset({"requests.Session", "requests.session", "httpx.Client", "urllib3.PoolManager"})
PATH_LISTERS = frozenset({"glob.glob", "glob.iglob", "os.listdir", "os.scandir", "os.walk"})
TORCH_FACTORIES = frozenset(
    f"torch.{n}"
    for n in [
        "randn",
        "rand",
        "randint",
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "linspace",
        "tensor",
        "eye",
        "randperm",
        "normal",
    ]
)
_MODEL_METHODS = frozenset(
    ["cuda", "to", "eval", "train", "half", "float", "bfloat16", "double", "cpu", "requires_grad_"]
)
_FRAME_METHODS = frozenset(
    [
        "copy",
        "query",
        "dropna",
        "fillna",
        "merge",
        "assign",
        "astype",
        "reset_index",
        "set_index",
        "sort_values",
        "rename",
        "drop",
        "drop_duplicates",
        "join",
    ]
)
_TINY_FRAME_METHODS = frozenset({"head", "tail", "sample"})
RNG_MAKERS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator"})
# What a NumPy generator draws: arrays (``rng.normal(size=n)``, ``rng.random(n)``).
_RNG_DRAWS = frozenset(
    {
        "random", "normal", "standard_normal", "uniform", "integers", "choice", "permutation", "exponential",
        "poisson", "binomial", "lognormal", "gamma", "beta", "multivariate_normal", "randn", "rand", "randint",
        "standard_exponential", "laplace", "logistic", "geometric", "dirichlet", "multinomial",
    }
)
# ``X.from_pretrained`` that loads no network: tokenizers, processors, configurations, schedulers.
_NOT_MODELS = ("token", "processor", "extractor", "config", "scheduler", "pipeline")
_LIVE_KINDS: tuple[tuple[str, str], ...] = (
    ("torch.compile", "compiled_model"),
    ("torch.jit._script.RecursiveScriptModule", "compiled_model"),
    ("torch.jit.ScriptModule", "compiled_model"),
    ("torch.jit._script.ScriptModule", "compiled_model"),  # traced models (TopLevelTracedModule) too
    ("torch.nn.Module", "model"),
    ("torch.utils.data.DataLoader", "loader"),
    ("pandas.DataFrame", "frame"),
    ("pandas.Series", "series"),
    ("numpy.ndarray", "ndarray"),
    ("numpy.random._generator.Generator", "rng"),
    ("numpy.random.mtrand.RandomState", "rng"),
    ("torch.Tensor", "tensor"),
    ("concurrent.futures.ThreadPoolExecutor", "thread_pool"),
    ("concurrent.futures.ProcessPoolExecutor", "process_pool"),
    ("requests.sessions.Session", "http_session"),
    ("distributed.Client", "dask_client"),
)


def is_model_class(bases: tuple[str, ...] | list[str]) -> bool:
    return any(b == "torch.nn.Module" or (b.startswith("torch.nn.") and b[9:10].isupper()) for b in bases)


def infer_symbol(expr: cst.BaseExpression, facts: Facts) -> Symbol | None:
    """The kind of value ``expr`` produces, when the cell makes that clear."""
    if isinstance(expr, cst.Name):
        return facts.symbol(expr)
    if isinstance(expr, (cst.List, cst.Tuple)):
        elements = [e.value for e in expr.elements]
        kind = "list" if isinstance(expr, cst.List) else "tuple"
        return Symbol(kind, expr, numeric=bool(elements) and all(map(is_number, elements)), size=len(elements))
    if isinstance(expr, cst.ListComp):
        from .exprs import is_arithmetic  # local: exprs imports nothing of ours, but keep cycles out

        return Symbol("list", expr, numeric=is_arithmetic(expr.elt))
    if isinstance(expr, (cst.Set, cst.SetComp)):
        return Symbol("set", expr)
    if isinstance(expr, cst.Integer):
        try:
            return Symbol("int", expr, size=int(expr.evaluated_value))  # sizes and counts: ``d = 20``
        except ValueError:
            return None
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        left, right = infer_symbol(expr.left, facts), infer_symbol(expr.right, facts)
        if left is not None and right is not None and left.kind == right.kind == "int":
            a, b = left.size or 0, right.size or 0
            op = expr.operator
            value = a + b if isinstance(op, cst.Add) else a - b if isinstance(op, cst.Subtract) else a * b
            return Symbol("int", expr, size=value)  # input_dim = num_words + 2
    if isinstance(expr, cst.Lambda):
        return Symbol("lambda", expr)  # ``f = lambda r: ...``: applied by name later, maybe cells later
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return Symbol("dict", expr)
    if isinstance(expr, cst.Subscript):
        base = facts.symbol(expr.value) if isinstance(expr.value, cst.Name) else None
        if base is not None and base.kind == "frame":
            key = expr.slice[0].slice if len(expr.slice) == 1 else None
            one_column = isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString)
            return replace(base, node=expr, kind="series" if one_column else "frame")
        return None
    if isinstance(expr, cst.Call):
        return _infer_call(expr, facts)
    return None


def _infer_call(call: cst.Call, facts: Facts) -> Symbol | None:
    func = call.func
    qname = facts.names.qname(func) if dotted(func) else None
    if qname is not None:
        sym = _by_qname(qname, call, facts)
        if sym is not None:
            return sym
    if isinstance(func, cst.Name):
        cls = facts.symbols.get(func.value)
        if cls is not None and cls.kind == "class" and is_model_class(cls.bases):
            return Symbol("model", call)
        return None
    if not isinstance(func, cst.Attribute):
        return None
    method = func.attr.value
    base = infer_symbol(func.value, facts)
    if base is not None and base.kind == "model" and method in _MODEL_METHODS:
        return model_method(base, method, call)
    if base is not None and base.kind == "rng" and method in _RNG_DRAWS:
        return Symbol("ndarray", call, numeric=True, size=array_size("numpy.random." + method, call))
    if base is not None and base.kind == "frame":
        if method in _FRAME_METHODS:
            return replace(base, node=call)
        if method in _TINY_FRAME_METHODS:
            return replace(base, node=call, tiny=True)
    if method == "tolist":
        from_array = base is not None and base.kind in ("ndarray", "tensor")
        return Symbol("list", call, numeric=from_array, size=base.size if base is not None else None)
    if method in ("readlines", "split", "splitlines"):
        return Symbol("list", call)
    if method in ("glob", "rglob", "iterdir"):
        return Symbol("paths", call)
    if method in ("to", "cuda") and base is not None and base.kind == "tensor":
        return base
    if method.endswith("from_pretrained"):
        return _pretrained(call, facts)
    return None


def model_method(base: Symbol, method: str, call: cst.Call) -> Symbol:
    """The model after ``model.<method>(...)``: moved to a GPU, cast to half or bfloat16."""
    low = method in ("half", "bfloat16") or any(_low_dtype(a.value) for a in call.args)
    device = next((a.value for a in call.args if a.keyword is None or a.keyword.value == "device"), None)
    gpu = method == "cuda" or (method == "to" and device is not None and looks_like_device(device))
    return replace(base, low_precision=base.low_precision or low, gpu=base.gpu or gpu)


def _low_dtype(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value in ("float16", "bfloat16", "half")


def _pretrained(call: cst.Call, facts: Facts) -> Symbol | None:
    """``X.from_pretrained(...)``: a model, unless X is a tokenizer, processor or configuration."""
    owner = (dotted_name_of(call.func) or "").rsplit(".", 1)[0].lower()
    if any(word in owner for word in _NOT_MODELS):
        return None
    low = any(
        a.keyword is not None
        and (
            (a.keyword.value in ("torch_dtype", "dtype") and _low_dtype(a.value))
            or a.keyword.value in ("load_in_8bit", "load_in_4bit", "quantization_config")
        )
        for a in call.args
    )
    return Symbol("model", call, low_precision=low)


def dotted_name_of(node: cst.BaseExpression) -> str | None:
    parts = dotted(node)
    return ".".join(parts) if parts else None


def _by_qname(qname: str, call: cst.Call, facts: Facts) -> Symbol | None:
    if qname in LOADERS:
        return Symbol("loader", call)
    if qname in FRAME_MAKERS:
        return Symbol("frame", call, tiny=qname == "pandas.DataFrame" and literal_args(call))
    if qname == "pandas.Series":
        return Symbol("series", call)
    if qname in COMPILERS:
        return Symbol("compiled_model", call)
    if qname in THREAD_POOLS:
        return Symbol("thread_pool", call)
    if qname in PROCESS_POOLS:
        return Symbol("process_pool", call)
    if qname in HTTP_SESSIONS:
        return Symbol("http_session", call)
    if qname in DASK_CLIENTS:
        return Symbol("dask_client", call)
    if qname in PATH_LISTERS:
        return Symbol("paths", call)
    if qname.startswith("torch.optim.") and qname.rsplit(".", 1)[-1][:1].isupper():
        return Symbol("optimizer", call)
    if qname.startswith(("torch.nn.", "torchvision.models.")) and "functional" not in qname:
        last = qname.rsplit(".", 1)[-1]
        if last.endswith("Loss"):
            return Symbol("loss", call)  # a criterion computes on outputs; it holds no weights to speak of
        if qname.startswith("torchvision.") or (last[:1].isupper() and last != "Parameter"):
            return Symbol("model", call)
    if qname.endswith(".from_pretrained"):
        return _pretrained(call, facts)
    if qname in TORCH_FACTORIES:
        return Symbol("tensor", call)
    if qname in RNG_MAKERS:
        return Symbol("rng", call)
    if qname.startswith("numpy.") and qname not in ("numpy.sum", "numpy.mean", "numpy.dtype"):
        return Symbol("ndarray", call, numeric=True, size=array_size(qname, call))
    if qname == "builtins.open":
        return Symbol("file", call)
    if qname == "builtins.range":
        return Symbol("range", call, numeric=True, size=range_size(call))
    if qname in ("builtins.set", "builtins.frozenset"):
        return Symbol("set", call)
    if qname in (
        "builtins.dict",
        "collections.Counter",
        "collections.defaultdict",
        "collections.OrderedDict",
    ):
        return Symbol("dict", call)
    if qname in ("builtins.list", "builtins.sorted"):
        inner = infer_symbol(call.args[0].value, facts) if call.args else None
        numeric = inner is not None and (inner.numeric or inner.kind in ("ndarray", "tensor", "range"))
        return Symbol("list", call, numeric=numeric, size=inner.size if inner is not None else None)
    return None


def live_symbol(obj: Any) -> Symbol | None:
    """The kind of a live namespace object, from its type's name alone (nothing imported)."""
    if obj is None:
        return None
    if isinstance(obj, list):
        head = obj[:8]
        numeric = bool(head) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in head)
        return Symbol("list", numeric=numeric, size=len(obj), obj=obj)
    if isinstance(obj, (set, frozenset)):
        return Symbol("set", obj=obj)
    if isinstance(obj, dict):
        return Symbol("dict", obj=obj)
    if isinstance(obj, range):
        return Symbol("range", numeric=True, size=len(obj), obj=obj)
    try:
        names = type_names(obj)
    except Exception:  # exotic metaclasses: an unknown object is simply not a known kind
        return None
    for name, kind in _LIVE_KINDS:
        if name in names:
            tiny = kind == "frame" and _live_len(obj) <= 20
            return Symbol(kind, obj=obj, numeric=kind in ("ndarray", "tensor"), tiny=tiny)
    return None


def _live_len(obj: Any) -> int:
    try:
        return len(obj)
    except Exception:
        return 1 << 30
