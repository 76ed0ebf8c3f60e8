"""Documentation of the bottleneck verdicts (AIP901-AIP908), in the registry with every other code,
so that ``%aiperf explain AIP901`` answers like it does for a rule. The thresholds quoted here are
the defaults of :class:`~.checks.Thresholds`; ``docs/runtime.md`` explains how each is measured."""

from __future__ import annotations

from ..rules.registry import document

document(
    "AIP901",
    "gpu-starved",
    "The GPU waited for data: the input pipeline cannot keep up",
    """
    ## What it does
    Given after a `%%aiperf` cell that used CUDA when the GPU's mean utilisation stayed below
    40 % while this process kept at least 0.8 of a core busy (or its busiest core averaged 90 %).

    ## Why is this bad?
    The GPU is the expensive part and it is idle most of the time: every batch is read, decoded
    and collated by the Python process between steps, so the model waits. A GPU busy 12 % of the
    time does in an hour what it could do in 7 minutes.

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=64)      # num_workers=0
    for x, y in loader:
        loss = loss_fn(model(x.cuda()), y.cuda())
    ```

    ## Use instead
    ```python
    loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True, persistent_workers=True)
    for x, y in loader:
        loss = loss_fn(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
    ```

    ## Fix safety
    No automatic fix: the verdict points at the findings that explain it (AIP101, AIP102, AIP103,
    AIP104, AIP501, AIP505), whose fixes can be tried one by one.

    ## References
    - Seed article, chapter 1 (the bottleneck table: low GPU utilisation with busy CPUs).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP902",
    "gil-bound",
    "Several Python threads ran but took turns holding the GIL",
    """
    ## What it does
    Given when, on a machine with 2 cores or more, at least 2 Python threads were busy in 50 % of
    the samples or more while the whole process used only 0.6 to 1.4 cores. Threads that hold the
    GIL starve the sampler of ticks, so their own CPU clocks also count: 2 or more of the cell's
    threads each on a CPU for a tenth of the wall time or more, none doing most of the work. Not
    when the hot lines spent half the run or more waiting (a socket, a sleep, a lock): threads
    blocked on I/O wake for a moment each and count as busy, yet the GIL is not what holds them.

    ## Why is this bad?
    Threads add parallelism only for work that releases the GIL (I/O, NumPy, torch kernels). For
    pure-Python work they take turns: 4 threads on 4 cores still run at about 1 core, plus the
    cost of switching between them.

    ## Example
    ```python
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(simulate, seeds))     # simulate is a Python loop
    ```

    ## Use instead
    ```python
    with ProcessPoolExecutor(4) as pool:
        results = list(pool.map(simulate, seeds))
    ```

    ## Fix safety
    No automatic fix here; AIP401's fix moves the work to processes, and is unsafe (the function
    and its arguments must be picklable).

    ## References
    - Seed article, chapter 3 (threads, processes and the GIL).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP903",
    "waiting",
    "The cell mostly waited (sleep, network, disk, locks or child processes)",
    """
    ## What it does
    Given when the process's CPU time was below 30 % of the wall time, its CPU demand below 0.7
    cores, and no GPU of this process was 20 % busy or more. The sentence adds the disk I/O volume
    and, when the machine's cores were busy, that other processes did the work.

    ## Why is this bad?
    Waiting is not computing: a faster CPU or GPU would not help. Calls that block one after the
    other (50 HTTP requests of 200 ms each take 10 s) can overlap instead.

    ## Example
    ```python
    pages = [requests.get(url).text for url in urls]
    ```

    ## Use instead
    ```python
    with ThreadPoolExecutor(16) as pool:
        pages = list(pool.map(lambda url: requests.get(url).text, urls))
    ```

    ## Fix safety
    No automatic fix here; AIP402's fix overlaps blocking calls in a loop, and is unsafe.

    ## References
    - Seed article, chapter 3 (I/O-bound work and concurrency).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP904",
    "host-memory-pressure",
    "Host memory ran short: swap grew, available memory fell, or the process neared the RAM size",
    """
    ## What it does
    Given when swap grew by 64 MiB or more during the cell, available memory fell below 10 % of
    RAM, or the process's resident memory reached 80 % of RAM.

    ## Why is this bad?
    Once the machine swaps, memory runs at disk speed: a pandas operation that took 1 s can take
    minutes, and the kernel may be killed. Everything else on the machine slows down too.

    ## Example
    ```python
    df = pd.read_csv("events.csv")          # every column at 64 bits or as Python strings
    ```

    ## Use instead
    ```python
    df = pd.read_csv("events.csv", usecols=["user", "amount"], dtype={"amount": "float32"})
    ```

    ## Fix safety
    No automatic fix here; AIP303 (smaller dtypes) and AIP304 (read only what is kept) have fixes.

    ## References
    - Seed article, chapter 2.4 (memory use and dtypes).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP905",
    "gpu-memory-pressure",
    "GPU memory ran short: the device's memory passed 90 % of its size",
    """
    ## What it does
    Given when the cell used CUDA and the device's memory in use (NVML), or torch's allocator peak,
    passed 90 % of the card's memory.

    ## Why is this bad?
    Past 90 % of the card, torch's allocator frees and retries, fragments, and then fails with
    "CUDA out of memory". Activations kept for an autograd graph nobody uses (inference without
    `no_grad`) are a common cause: they can hold several times the model's own size.

    ## Example
    ```python
    preds = [model(x) for x in batches]          # autograd keeps every activation
    ```

    ## Use instead
    ```python
    with torch.inference_mode():
        preds = [model(x) for x in batches]
    ```

    ## Fix safety
    No automatic fix here; AIP502 (inference mode) and AIP504 (mixed precision) have fixes.

    ## References
    - Seed article, chapter 4 (GPU memory and mixed precision).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP906",
    "gpu-bound",
    "GPU compute limits the cell: the GPU was busy in most samples",
    """
    ## What it does
    Given when the cell used CUDA and the GPU was at least 50 % busy in 70 % of the samples or more.

    ## Why is this bad?
    It is the healthy bottleneck for training, not a trap: the remaining gains are in doing less
    work per step on the GPU. Mixed precision often gives 1.5-3x on tensor-core GPUs; larger
    batches and `torch.compile` cut launch overhead.

    ## Example
    ```python
    for x, y in loader:
        loss = loss_fn(model(x), y)
        loss.backward()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = loss_fn(model(x), y)
        loss.backward()
    ```

    ## Fix safety
    No automatic fix here; AIP504 (mixed precision) and AIP506 (compile) have fixes.

    ## References
    - Seed article, chapter 4 (mixed precision, compilation).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP907",
    "cpu-bound-one-core",
    "One CPU core limits the cell: the hot lines run in the interpreter",
    """
    ## What it does
    Given when the cell's own CPU (its threads and worker processes; the kernel's and aiperf's
    threads left out) was at least 0.7 and below 1.5 cores, and nothing above applied. CPU that
    other processes held while the cell waited for one is not the cell's: a cell with more than
    half a core of its own that waited for the rest (running plus waiting at least 0.7 core, the
    wait a tenth of a core or more: threads woken by responses wait a moment after each wake-up)
    gets this verdict, its sentence saying how long it waited; one that got half a core or less
    because the machine was busy gets no CPU verdict, and a note says so. Informational: the hot
    lines and findings say where the time went, and the advice follows what they did (a torch
    model computing, a DataLoader preparing batches, pandas per row, a Python loop, parsing).

    ## Why is this bad?
    One core running Python bytecode is the slowest way to compute: a row loop over a DataFrame
    ran about 3,700x slower than the same column expression (AIP301). Using more cores is rarely
    the first fix; running the work in vectorised code usually is.

    ## Example
    ```python
    for i, row in df.iterrows():
        df.loc[i, "total"] = row["price"] * row["qty"]
    ```

    ## Use instead
    ```python
    df["total"] = df["price"] * df["qty"]
    ```

    ## Fix safety
    No automatic fix here; the related findings (AIP201, AIP202, AIP203, AIP301, AIP302) have fixes.

    ## References
    - Seed article, chapter 2 (vectorisation, data structures).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

document(
    "AIP908",
    "cpu-bound-many-cores",
    "The work already runs on several (or all) cores",
    """
    ## What it does
    Given when the cell's own CPU was 1.5 cores or more on a machine with at least 2; "all cores"
    when above 80 % of them. Time spent waiting for a CPU held by other processes never makes a
    cell "CPU-bound on all cores". Informational.

    ## Why is this bad?
    It is not a trap: the work is already parallel. Only less work (a better algorithm, 32-bit
    dtypes that halve the bytes streamed) or more cores make it faster.

    ## Example
    ```python
    df.groupby("user")["amount"].sum()     # float64 over 10,000,000 rows
    ```

    ## Use instead
    ```python
    df["amount"] = df["amount"].astype("float32")
    df.groupby("user")["amount"].sum()
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - Seed article, chapter 1 (the bottleneck table).
    - `docs/runtime.md`, "The verdict".
    """,
    kind="verdict",
)

from . import cluster_docs  # noqa: E402,F401  (AIP910-AIP914, the cluster verdicts)
