"""The catalog: importing this package registers every rule (see :mod:`..registry`)."""

from . import concurrency, data, pandas, python, runtime, streaming, torch_inference, torch_training

__all__ = ["concurrency", "data", "pandas", "python", "runtime", "streaming", "torch_inference", "torch_training"]
