"""AIP601: 2,000 tiny tasks one per item vs 4 batches, on a 2-worker LocalCluster (processes)."""

from _timing import compare, report
from distributed import Client, LocalCluster


def inc(v: int) -> int:
    return v + 1


def inc_batch(xs: range) -> list[int]:
    return [v + 1 for v in xs]


if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        items = range(2000)

        def item_by_item() -> list:
            return client.gather([client.submit(inc, x, pure=False) for x in items])

        def batched() -> list:
            batches = [items[i:i + 500] for i in range(0, len(items), 500)]
            return client.gather(client.map(inc_batch, batches, pure=False))

        def wait_each() -> list:
            return [client.submit(inc, x, pure=False).result() for x in range(200)]

        slow, fast = compare(item_by_item, batched, repeat=3)
        report("AIP601", "2,000 tiny tasks", "one task per item", "4 batches", slow, fast)
        slow, fast = compare(wait_each, lambda: client.gather(client.map(inc_batch, [range(200)], pure=False)),
                             repeat=3)
        report("AIP601", "200 items", "submit(...).result() per item", "one batch", slow, fast)
