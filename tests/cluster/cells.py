"""Cells that run on a Dask cluster named ``client``, shared by the engine and the browser tests.
Importing this module imports no engine."""

TINY = """\
futures = client.map(lambda x: x + 1, range(500), pure=False)
total = sum(client.gather(futures))
"""

HEAVY = """\
def heavy(n):
    import numpy as np
    a = np.random.default_rng(0).random((n, n))
    for _ in range(8):
        a = a @ a / n
    return float(a.sum())

workers = sorted(client.scheduler_info()["workers"])
results = client.gather([client.submit(heavy, 700, pure=False, workers=[w]) for w in workers])
"""

PINNED = """\
def work(n):
    import numpy as np
    a = np.random.default_rng(0).random((n, n))
    return float((a @ a).sum())

first = sorted(client.scheduler_info()["workers"])[0]
pinned = client.gather([client.submit(work, 800, pure=False, workers=[first]) for _ in range(12)])
"""
