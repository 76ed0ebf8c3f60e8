"""AIP201: squaring a million numbers in a list comprehension vs one NumPy expression."""

import numpy as np
from _timing import compare, report

N = 1_000_000
py_list = list(range(N))
np_array = np.arange(N)
slow, fast = compare(lambda: [x**2 for x in py_list], lambda: np_array**2)
report("AIP201", f"square {N:,} numbers", "list comprehension", "np_array ** 2", slow, fast)
