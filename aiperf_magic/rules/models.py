"""Models, as several rules need to know them: which call runs one, how large one is, and whether
code sits inside a module's own methods or a unit test.

A model's size decides whether GPU advice matters: a network of a few hundred thousand weights is
bound by kernel launches and Python, not by arithmetic, so mixed precision or fewer host syncs
change little. The size is counted from the layers its class builds in ``__init__`` when the class
is written in the notebook with sizes the code spells out, or from the live object in
``%%aiperf``; otherwise it is unknown (and the model is not taken for a small one).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from .facts import Call, Facts, Scope
from .symbols import Symbol, infer_symbol, is_model_class

TINY_PARAMS = 2_000_000  # weights doing arithmetic (embeddings aside): below this a step is launch-bound
_UNKNOWN = -(10**18)  # a size this count cannot read; any layer built from it is unknown

# Layers and their weights, from their size arguments (bias and norms are a rounding error).
_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1, "LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}
_FREE = frozenset(
    {
        "ReLU", "GELU", "SiLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "LeakyReLU", "ELU", "Dropout",
        "Dropout2d", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d",
        "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Identity", "Sequential", "ModuleList",
        "ModuleDict", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "Upsample",
        "Softplus", "Hardtanh", "PReLU", "Mish", "ZeroPad2d", "InstanceNorm2d", "PixelShuffle",
    }
)


def is_model_call(facts: Facts, call: Call) -> bool:
    """``model(x)`` or ``model.forward(x)`` on something known to be a model."""
    func = call.node.func
    if isinstance(func, cst.Name):
        sym = call.callee if call.callee is not None else facts.symbol(func)
        if sym is not None and sym.kind == "param":
            passed = passed_in(facts, sym.node, func.value)
            if passed is not None:
                return passed.kind in ("model", "compiled_model")
            return func.value in facts.model_names  # a parameter the code uses as a module
        return sym is not None and sym.kind in ("model", "compiled_model")
    # ``generate`` is left out: Hugging Face runs it under ``no_grad`` already.
    return call.method == "forward" and facts.kind(call.receiver) in ("model", "compiled_model")


def model_of(facts: Facts, call: Call) -> Symbol | None:
    """The model a model call runs."""
    if isinstance(call.node.func, cst.Name):
        sym = call.callee if call.callee is not None else facts.symbol(call.node.func)
        if sym is not None and sym.kind == "param":
            return passed_in(facts, sym.node, call.node.func.value) or Symbol("model", call.node.func)
        return sym
    return facts.symbol(call.receiver)


def passed_in(facts: Facts, func: cst.CSTNode | None, param: str) -> Symbol | None:
    """What the callers of ``func`` pass as its parameter ``param`` (``train(model, loader)``, or
    ``train.remote(model, loader)`` for a Ray task, anywhere in the notebook), when one of them
    passes something known."""
    if not isinstance(func, cst.FunctionDef):
        return None
    names = [p.name.value for p in func.params.params]
    index = names.index(param) if param in names else None
    for cell in facts.cells():
        for call in cell.calls:
            callee = call.receiver if call.method == "remote" else call.node.func  # Ray: ``f.remote(x)`` calls ``f``
            if not (isinstance(callee, cst.Name) and callee.value == func.name.value):
                continue
            arg = call.kwarg(param) or (call.positional(index) if index is not None else None)
            sym = infer_symbol(arg.value, cell) if arg is not None else None
            if sym is not None and sym.kind not in ("param",):
                return sym
    return None


def in_module_method(scope: Scope | None) -> bool:
    """Code of a module's own methods (``forward``): whoever calls the module decides whether it
    trains or infers, so rules judge the caller, not this code."""
    while scope is not None:
        cls = scope.cls
        if cls is not None:
            bases = [b.value for b in cls.bases]
            named = any(_leaf(b) in ("Module", "LightningModule") or _leaf(b).endswith("Model") for b in bases)
            has_forward = any(isinstance(s, cst.FunctionDef) and s.name.value == "forward" for s in cls.body.body)
            if named or has_forward:
                return True
        scope = scope.parent
    return False


def in_test(scope: Scope | None) -> bool:
    """A unit test (``def test_...`` or a method of ``class Test...``): it checks, it does not work."""
    while scope is not None:
        if scope.name.startswith("test_") or (scope.cls is not None and scope.cls.name.value.startswith("Test")):
            return True
        scope = scope.parent
    return False


def _leaf(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else ""


def model_params(facts: Facts, sym: Symbol | None) -> int | None:
    """The number of weights of a model, when the code (or the live object) says it."""
    if sym is None:
        return None
    if sym.obj is not None:
        return _live_params(sym.obj)
    call = sym.node
    if isinstance(call, cst.Name):  # known as a model by use only: what made it?
        call = _made_by(facts, call.value)
    if not isinstance(call, cst.Call):
        return None
    if (facts.names.qname(call.func) or "").startswith("torch.nn."):
        return _count(facts, call, _module_ints(facts), 0)  # nn.Sequential(nn.Linear(2, 8), ...)
    if not isinstance(call.func, cst.Name):
        return None
    cls = facts.symbols.get(call.func.value)
    if cls is not None and cls.kind == "function" and isinstance(cls.node, cst.FunctionDef):
        return _factory_params(facts, cls.node, call)  # make_generator_network(...) returns the layers
    if cls is None or cls.kind != "class" or not isinstance(cls.node, cst.ClassDef):
        return None
    return _class_params(facts, cls.node, _args_env(facts, call, {}), 0)


def _made_by(facts: Facts, name: str) -> cst.Call | None:
    """The call whose result was last assigned to ``name`` in the notebook."""
    for cell in reversed(facts.cells()):
        for assign in reversed(cell.assigns):
            if isinstance(assign.value, cst.Call) and any(
                isinstance(t, cst.Name) and t.value == name for t in assign.targets
            ):
                value = assign.value
                while isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Call):
                    value = value.func.value  # make_net(...).to(device)
                return value
    return None


def _factory_params(facts: Facts, func: cst.FunctionDef, call: cst.Call) -> int | None:
    """Weights of the layers a model-building function makes, with the call's arguments."""
    env = {**_module_ints(facts)}
    names = [p.name.value for p in func.params.params]
    for p in func.params.params:
        if p.default is not None:
            value = _int(p.default, env)
            if value is not None:
                env[p.name.value] = value
    for index, arg in enumerate(call.args):
        value = _int(arg.value, env)
        key = arg.keyword.value if arg.keyword is not None else (names[index] if index < len(names) else None)
        if key is not None and value is not None:
            env[key] = value
        elif key is not None:
            env.pop(key, None)  # passed something this count cannot read: not the default
    return _count(facts, func.body, env, 1)


def is_tiny(facts: Facts, sym: Symbol | None) -> bool:
    params = model_params(facts, sym)
    return params is not None and params < TINY_PARAMS


def _live_params(obj: Any) -> int | None:
    try:
        return int(sum(p.numel() for p in obj.parameters()))
    except Exception:  # not a module after all, or parameters that cannot be counted
        return None


def _class_params(facts: Facts, cls: cst.ClassDef, env: dict[str, int], depth: int) -> int | None:
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    bases = tuple(facts.names.qname(b.value) or "" for b in cls.bases)
    if init is None or depth > 4 or not is_model_class(bases):
        return None
    scope = {**_module_ints(facts), **env}
    for param in init.params.params:
        name = param.name.value
        if name not in scope and param.default is not None:
            value = _int(param.default, scope)
            if value is not None:
                scope[name] = value
    return _count(facts, init.body, scope, depth)


def _count(facts: Facts, node: cst.CSTNode, env: dict[str, int], depth: int) -> int | None:
    """Weights of the layers built under ``node`` (loops and comprehensions multiply)."""
    if isinstance(node, cst.Assign):
        for target in node.targets:
            attr = target.target
            if isinstance(attr, cst.Attribute) and isinstance(attr.value, cst.Name) and attr.value.value == "self":
                value = _int(node.value, env)
                if value is not None:
                    env[f"self.{attr.attr.value}"] = value
            elif isinstance(attr, cst.Name):
                value = _int(node.value, env)
                if value is not None:
                    env[attr.value] = value
    if isinstance(node, (cst.For, cst.ListComp, cst.GeneratorExp)):
        it = node.iter if isinstance(node, cst.For) else node.for_in.iter
        times = _range_len(it, env)
        body: cst.CSTNode = node.body if isinstance(node, cst.For) else node.elt
        inner = _count(facts, body, env, depth)
        return None if times is None or inner is None else times * inner
    total = 0
    if isinstance(node, cst.Call):
        own = _layer(facts, node, env, depth)
        if own is None:
            return None
        total += own
    for child in _children(node):
        sub = _count(facts, child, env, depth)
        if sub is None:
            return None
        total += sub
    return total


def _children(node: cst.CSTNode) -> list[cst.CSTNode]:
    from ..cell.tree import children

    return [c for c in children(node) if not isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda))]


def _layer(facts: Facts, call: cst.Call, env: dict[str, int], depth: int) -> int | None:
    """Weights of one constructor call: 0 for functions and weightless layers, None when unknown."""
    name = _leaf(call.func)
    if not name[:1].isupper():
        return 0  # super().__init__(), a helper function, range(...): no layer of its own
    args = [_int(a.value, env) for a in call.args if a.keyword is None]
    kw = {a.keyword.value: _int(a.value, env) for a in call.args if a.keyword is not None}
    if name in _FREE:
        return 0
    if name == "Linear" or name == "LazyLinear":
        i, o = _two(args, kw, "in_features", "out_features")
        return None if i is None or o is None else i * o + o
    if name.startswith(("Conv", "ConvTranspose")):
        i, o = _two(args, kw, "in_channels", "out_channels")
        k = args[2] if len(args) > 2 else kw.get("kernel_size")
        dims = int(name[-2]) if name[-2:-1].isdigit() else 2
        return None if i is None or o is None or k is None else i * o * k**dims + o
    if name in ("Embedding", "EmbeddingBag"):
        return 0  # a lookup table: its weights are read a row at a time, no arithmetic to speed up
    if name in _GATES:
        i, h = _two(args, kw, "input_size", "hidden_size")
        layers = args[2] if len(args) > 2 else kw.get("num_layers", 1)
        if i is None or h is None or layers is None:
            return None
        return _GATES[name] * (i * h + h * h + 2 * h) + (layers - 1) * _GATES[name] * (2 * h * h + 2 * h)
    if isinstance(call.func, cst.Name):
        cls = facts.symbols.get(call.func.value)
        if cls is not None and cls.kind == "class" and isinstance(cls.node, cst.ClassDef):
            return _class_params(facts, cls.node, _args_env(facts, call, env), depth + 1)
    return None  # a layer this count does not know: the model's size is unknown


def _two(args: list[int | None], kw: dict[str, int | None], a: str, b: str) -> tuple[int | None, int | None]:
    first = args[0] if args else kw.get(a)
    second = args[1] if len(args) > 1 else kw.get(b)
    return first, second


def _args_env(facts: Facts, call: cst.Call, env: dict[str, int]) -> dict[str, int]:
    """The constructor's arguments as the class's ``__init__`` parameters see them."""
    out: dict[str, int] = {}
    cls = facts.symbols.get(call.func.value) if isinstance(call.func, cst.Name) else None
    init = None
    if cls is not None and isinstance(cls.node, cst.ClassDef):
        body = cls.node.body.body
        init = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    params = [p.name.value for p in init.params.params][1:] if init is not None else []
    module_env = {**_module_ints(facts), **env}
    unknown: set[str] = set()
    for index, arg in enumerate(a for a in call.args if a.keyword is None and not a.star):
        value = _int(arg.value, module_env)
        if index < len(params):
            if value is not None:
                out[params[index]] = value
            else:
                unknown.add(params[index])
    for arg in call.args:
        if arg.keyword is not None:
            value = _int(arg.value, module_env)
            if value is not None:
                out[arg.keyword.value] = value
            else:
                unknown.add(arg.keyword.value)
    if unknown:  # passed something this count cannot read: the parameter's default does not apply
        out.update({name: _UNKNOWN for name in unknown})
    return out


def _module_ints(facts: Facts) -> dict[str, int]:
    """Integers bound at the top of this cell or earlier ones (``d = 20``, ``hidden = 4 * d``)."""
    out: dict[str, int] = {
        name: sym.size for name, sym in facts.symbols.items() if sym.kind == "int" and sym.size is not None
    }
    for name, sym in facts.symbols.items():  # image_size = (28, 28): np.prod(image_size) is 784
        if sym.kind == "tuple" and isinstance(sym.node, cst.Tuple):
            dims = [_int(e.value, out) for e in sym.node.elements]
            if dims and None not in dims:
                product = 1
                for d in dims:
                    product *= d  # type: ignore[operator]
                out[f"shape:{name}"] = product
    for assign in facts.assigns:
        if assign.loop is None and isinstance(assign.node, cst.Assign) and assign.value is not None:
            value = _int(assign.value, out)
            if value is not None:
                out.update({t.value: value for t in assign.targets if isinstance(t, cst.Name)})
    return out


def _int(node: cst.BaseExpression, env: dict[str, int]) -> int | None:
    """An integer the code spells out: literals, known names, ``self.x``, simple arithmetic."""
    if isinstance(node, cst.Integer):
        try:
            return int(node.evaluated_value)
        except ValueError:
            return None
    if isinstance(node, cst.Name):
        value = env.get(node.value)
        return None if value == _UNKNOWN else value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        value = env.get(f"{node.value.value}.{node.attr.value}")
        return None if value == _UNKNOWN else value
    if isinstance(node, cst.Tuple) and node.elements:  # kernel_size=(3, 3)
        return _int(node.elements[0].value, env)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "prod":
        dims = env.get(f"shape:{_leaf(node.args[0].value)}") if node.args else None  # np.prod(image_size)
        return dims if dims is not None and dims != _UNKNOWN else None
    if isinstance(node, cst.BinaryOperation):
        a, b = _int(node.left, env), _int(node.right, env)
        if a is None or b is None:
            return None
        if isinstance(node.operator, cst.Add):
            return a + b
        if isinstance(node.operator, cst.Subtract):
            return a - b
        if isinstance(node.operator, cst.Multiply):
            return a * b
        if isinstance(node.operator, cst.FloorDivide) and b:
            return a // b
        if isinstance(node.operator, cst.Power) and 0 <= b <= 8:
            return a**b
    return None


def _range_len(node: cst.BaseExpression, env: dict[str, int]) -> int | None:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range":
        bounds = [_int(a.value, env) for a in node.args]
        if len(bounds) == 1 and bounds[0] is not None:
            return max(0, bounds[0])
        if len(bounds) >= 2 and bounds[0] is not None and bounds[1] is not None:
            return max(0, bounds[1] - bounds[0])
        return None
    if isinstance(node, (cst.List, cst.Tuple)):
        return len(node.elements)
    return None
