# ruff: noqa
"""A thread pool mapping a pure-Python CPU-bound function: the threads take turns holding the GIL.

source: the Real Python article "Speed Up Your Python Program With Concurrency", CPU-bound section
        (cpu_bound(number) = sum(i * i for i in range(number)) mapped over 20 numbers), here with
        a ThreadPoolExecutor as readers first try
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: ProcessPoolExecutor (or NumPy for the sum of squares)
size: 20 numbers near 250,000 (5,000,000 additions in all), 4 threads
scaled: yes: the article uses numbers near 5,000,000 (several seconds per call)
kernel: data
"""
# %% setup
import concurrent.futures


def cpu_bound(number):
    return sum(i * i for i in range(number))


numbers = [250_000 + x for x in range(20)]
# %% cell
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as executor:  # expect: AIP401
    results = list(executor.map(cpu_bound, numbers))  # expect: AIP401
