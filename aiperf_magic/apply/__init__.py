"""One-click apply: the kernel side of the comm protocol the notebook extension answers."""
