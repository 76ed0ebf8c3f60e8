"""AIP5xx: PyTorch training and inference traps."""

from . import deprecated_amp, device_tensors, eager_inference, host_syncs, inference_grad, mixed_precision

__all__ = ["deprecated_amp", "device_tensors", "eager_inference", "host_syncs", "inference_grad", "mixed_precision"]
