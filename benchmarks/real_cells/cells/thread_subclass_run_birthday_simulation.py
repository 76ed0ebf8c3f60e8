# ruff: noqa
"""A birthday-paradox simulation split over four threading.Thread subclasses whose run() loops in pure Python: the GIL lets one run at a time.

source: concurrency tutorials and simulation notebooks that subclass threading.Thread (class
        Worker(threading.Thread): def run(self): ...; workers = [Worker(...) for ...]; start();
        join()) to spread a Monte Carlo estimate over threads, here the share of rooms of 23
        people with a shared birthday
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: the trials drawn at once with NumPy (rng.integers(0, 365, (trials, 23)), sorted, equal neighbours), or the workers as processes: the same estimate from other draws
size: 4 threads x 25,000 rooms of 23 people
scaled: no
kernel: data
unsure: AIP401 names threads running a notebook function; here the Python work is a run() method of a
        Thread subclass
"""
# %% setup
import random
import threading
# %% cell
class BirthdayWorker(threading.Thread):
    def __init__(self, trials, seed):
        super().__init__()
        self.trials, self.seed, self.shared = trials, seed, 0

    def run(self):
        rnd = random.Random(self.seed)
        shared = 0
        for _ in range(self.trials):  # expect: AIP401
            days = [rnd.randrange(365) for _ in range(23)]  # expect: AIP401
            if len(set(days)) < 23:
                shared += 1
        self.shared = shared


workers = [BirthdayWorker(25_000, seed) for seed in range(4)]  # expect: AIP401
for w in workers:
    w.start()
for w in workers:
    w.join()
p_shared = sum(w.shared for w in workers) / (4 * 25_000)
