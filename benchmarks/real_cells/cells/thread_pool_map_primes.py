# ruff: noqa
"""ThreadPoolExecutor.map over a prime-counting function: CPU-bound Python in a thread pool.

source: the Real Python article "Speed Up Your Python Program With Concurrency" (the CPU-bound
        example in threads) and AIP401's documentation (count_primes over chunks)
family: threads
kind: slow
verdict: AIP902
rewrite: yes: ProcessPoolExecutor with the same map
size: 4 chunks of 30,000 numbers
scaled: no
kernel: data
"""
# %% setup
from concurrent.futures import ThreadPoolExecutor
# %% cell
def count_primes(bounds):
    lo, hi = bounds
    found = 0
    for n in range(lo, hi):  # expect: AIP401
        if n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1)):  # expect: AIP401
            found += 1
    return found


chunks = [(k * 30_000, (k + 1) * 30_000) for k in range(4)]
with ThreadPoolExecutor(max_workers=4) as pool:  # expect: AIP401
    results = list(pool.map(count_primes, chunks))  # expect: AIP401
