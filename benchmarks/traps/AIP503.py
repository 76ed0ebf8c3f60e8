"""AIP503: what the deprecated torch.cuda.amp spellings do: count the warnings each one raises."""

import warnings

import torch

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(10):
        torch.cuda.amp.GradScaler(enabled=False)
        with torch.cuda.amp.autocast(enabled=False):
            pass
future = [w for w in caught if issubclass(w.category, FutureWarning)]
print(
    f"AIP503: torch {torch.__version__}: 10 GradScaler + 10 autocast constructions raised "
    f"{len(future)} FutureWarnings; first: {str(future[0].message)[:90] if future else 'none'}"
)
