"""AIP602: 50 sums of one Dask array's slices, .compute() in the loop vs one dask.compute."""

import dask
import dask.array as da
from _timing import compare, report
from distributed import Client, LocalCluster

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        x = da.random.random((5_000, 2_000), chunks=(500, 2_000))

        def in_loop() -> list:
            return [x[i * 100:(i + 1) * 100].sum().compute() for i in range(50)]

        def together() -> list:
            return list(dask.compute(*[x[i * 100:(i + 1) * 100].sum() for i in range(50)]))

        slow, fast = compare(in_loop, together, repeat=3)
        report("AIP602", "50 slice sums of a 5,000 x 2,000 Dask array", ".compute() in the loop",
               "one dask.compute", slow, fast)
