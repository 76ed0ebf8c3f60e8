# ruff: noqa
"""Four threads each counting in a pure-Python loop: the GIL lets one run at a time.

source: the seed article, chapter 3.1 (cpu_task counting to 10**7 in each of 4 threads, timed)
family: threads
kind: slow
verdict: AIP902
rewrite: yes: processes (ProcessPoolExecutor) for CPU-bound Python
size: 4 threads x 3,000,000 iterations
scaled: yes: the article counts to 10**7 in each thread (several seconds)
kernel: data
"""
# %% setup
import threading
import time
# %% cell
def cpu_task():
    count = 0
    for _ in range(3_000_000):  # expect: AIP401
        count += 1  # expect: AIP401


start = time.time()
threads = [threading.Thread(target=cpu_task) for _ in range(4)]  # expect: AIP401
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"took {time.time() - start:.2f} s")
