# ruff: noqa
"""A running median of request latencies kept by inserting each new value into a sorted NumPy array with np.insert: every insert copies the whole array so far.

source: monitoring and streaming-statistics notebooks that track percentiles of a stream by keeping
        the values sorted (pos = np.searchsorted(window, x); window = np.insert(window, pos, x);
        medians.append(window[len(window) // 2])), the array grown one value at a time
family: growing
kind: slow
verdict: AIP907
rewrite: yes: two heaps (heapq: a max-heap of the lower half and a min-heap of the upper half, rebalanced at each value) give the same medians, the element at index len // 2 of the sorted prefix, in O(log n) per value
size: 20,000 latencies
scaled: no
kernel: data
unsure: the loop reads the sorted array at every step (the median), which AIP203 leaves alone, and np.insert
        is not among the calls it names; any code on these lines is accepted
"""
# %% setup
import numpy as np

rng = np.random.default_rng(518)
latencies = rng.lognormal(3.2, 0.6, 20_000).round(2)
# %% cell
window = np.empty(0)
medians = []
for x in latencies:  # expect: *
    pos = np.searchsorted(window, x)
    window = np.insert(window, pos, x)  # expect: *
    medians.append(window[len(window) // 2])
p50_final = medians[-1]
