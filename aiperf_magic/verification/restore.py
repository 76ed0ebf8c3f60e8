"""Undo what an in-process trial changed: RNG streams, and the globals the cell's functions reach.

Used only where a trial cannot run in a forked copy (CUDA initialised, no ``fork``). The cell's
own inputs are copies (:mod:`.sandbox`), but functions it calls still see the kernel's globals: a
counter bumped by ``bump()``, a model trained by ``train_step()``, a cache filled by ``lookup()``.
:class:`Snapshot` walks the functions reachable from the cell (user code only, not libraries),
records the globals and closure cells they name, and puts each back after every run: the binding,
and the contents in place (lists, dicts, sets, arrays, tensors, modules' weights and optimizers'
state, objects' attributes), so other references to the same object see the restored value.
Also restored: the random, NumPy and torch (CPU and CUDA) RNG states, the working directory,
environment variables and ``sys.path``.
"""

from __future__ import annotations

import copy
import io
import os
import random
import sys
import types
from typing import Any

from .reach import Reach
from .sandbox import ATOMIC, SHARED, Refused, copy_value, size_of


class Snapshot(Reach):
    """Saved state to put back after each in-process run."""

    def __init__(self, namespace: dict[str, Any], codes: list[types.CodeType], limit_bytes: int) -> None:
        super().__init__()
        self.slots: list[tuple[dict[str, Any], str, bool, Any, Any]] = []
        self.cells: list[tuple[Any, Any, Any]] = []
        self._memo: dict[int, Any] = {}
        self._bytes = 0
        self._limit = limit_bytes
        self.rng = _rng_state()
        self.cwd = os.getcwd()
        self.environ = dict(os.environ)
        self.path = list(sys.path)
        for code in codes:
            self.code(code, namespace, top=True)

    # --- what to save (the walk itself is :class:`.reach.Reach`) --------------------------------

    def found_global(self, globals_: dict[str, Any], name: str, top: bool) -> None:
        if not top:  # the cell's own names are sandbox copies: only what they lead to is saved
            value = globals_[name]
            self.slots.append((globals_, name, True, value, self._save(value, name)))

    def found_cell(self, cell: Any, value: Any) -> None:
        self.cells.append((cell, value, self._save(value, "a closure variable")))

    def _save(self, value: Any, name: str) -> Any:
        if isinstance(value, (*ATOMIC, *SHARED, tuple, frozenset)):
            return None
        if isinstance(value, io.IOBase) and not value.closed and _writable(value):
            raise Refused(f"{name} is an open file the cell's functions may write to; this cannot be undone in-process")
        self._bytes += size_of(value)
        if self._bytes > self._limit:
            raise Refused(f"the globals the cell's functions use are too large to snapshot ({name})")
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.nn.Module):
            return {
                k: (v.detach().clone(), None if v.grad is None else v.grad.clone())
                for k, v in value.state_dict(keep_vars=True).items()
            }, [m.training for m in value.modules()]
        if torch is not None and isinstance(value, torch.optim.Optimizer):
            return copy.deepcopy(value.state_dict())
        try:
            return copy_value(value, self._memo)
        except Refused:
            return None

    # --- putting it back ---------------------------------------------------------------------

    def restore(self) -> None:
        _set_rng_state(self.rng)
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        sys.path[:] = self.path
        for globals_, name, _had, ref, saved in self.slots:
            globals_[name] = ref
            if saved is not None:
                _put_back(ref, saved)
        for cell, ref, saved in self.cells:
            cell.cell_contents = ref
            if saved is not None:
                _put_back(ref, saved)


def _writable(fh: io.IOBase) -> bool:
    try:
        return bool(fh.writable())
    except Exception:
        return False


def _put_back(ref: Any, saved: Any) -> None:
    """Make ``ref`` hold ``saved``'s contents again, keeping its identity."""
    torch = sys.modules.get("torch")
    np = sys.modules.get("numpy")
    if torch is not None and isinstance(ref, torch.nn.Module):
        tensors, modes = saved
        with torch.no_grad():
            for k, v in ref.state_dict(keep_vars=True).items():
                data, grad = tensors[k]
                v.data.copy_(data)
                if isinstance(v, torch.nn.Parameter):
                    v.grad = None if grad is None else grad.clone()
        for m, mode in zip(ref.modules(), modes, strict=False):
            m.training = mode
        return
    if torch is not None and isinstance(ref, torch.optim.Optimizer):
        ref.load_state_dict(copy.deepcopy(saved))
        return
    if torch is not None and isinstance(ref, torch.Tensor):
        with torch.no_grad():
            ref.data = saved.clone() if ref.shape != saved.shape else ref.data.copy_(saved)
        return
    fresh = copy_value(saved, {})  # the snapshot itself stays pristine for the next restore
    if np is not None and isinstance(ref, np.ndarray):
        if ref.shape == fresh.shape and ref.flags.writeable:
            ref[...] = fresh
    elif np is not None and isinstance(ref, np.random.Generator):
        ref.bit_generator.state = fresh.bit_generator.state
    elif np is not None and isinstance(ref, np.random.RandomState):
        ref.set_state(fresh.get_state())
    elif isinstance(ref, random.Random):
        ref.setstate(fresh.getstate())
    elif isinstance(ref, list):
        ref[:] = fresh
    elif isinstance(ref, (dict, set)):
        ref.clear()
        ref.update(fresh)
    elif isinstance(ref, bytearray):
        ref[:] = fresh
    elif hasattr(ref, "__dict__") and hasattr(fresh, "__dict__"):
        state = vars(ref)
        state.clear()
        state.update(vars(fresh))


def _rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {"random": random.getstate()}
    np = sys.modules.get("numpy")
    if np is not None:
        state["numpy"] = np.random.get_state()
    torch = sys.modules.get("torch")
    if torch is not None:
        state["torch"] = torch.get_rng_state()
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["random"])
    if "numpy" in state:
        sys.modules["numpy"].random.set_state(state["numpy"])
    torch = sys.modules.get("torch")
    if torch is not None and "torch" in state:
        torch.set_rng_state(state["torch"])
        if "cuda" in state:
            torch.cuda.set_rng_state_all(state["cuda"])
