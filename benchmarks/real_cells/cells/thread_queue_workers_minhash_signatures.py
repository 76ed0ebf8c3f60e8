# ruff: noqa
"""MinHash signatures of 6,000 news articles computed by four worker threads that take documents from a queue.Queue: word shingles and 32 salted hashes in pure Python, so the GIL runs one worker at a time.

source: near-duplicate detection notebooks and scripts (MinHash / LSH written from scratch: shingle
        each document into word 3-grams, keep the minimum of (hash(s) ^ salt) for each of k salts),
        "sped up" with the worker-thread pattern of the threading and queue docs (q = Queue();
        threads = [Thread(target=worker, daemon=True) for _ in range(4)]; q.put(doc) for each;
        q.join(), then a None per worker to stop it), then candidate pairs by banding
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: the same signature function in a process pool (ProcessPoolExecutor(max_workers=2).map(signature, texts, chunksize=200); forked workers keep the kernel's string hashes), or the shingle hashes of each document hashed once into a NumPy array and the 32 salts applied as one XOR and one min over it: the same signatures
size: 6,000 articles of 60 words, 32 hash functions, 4 threads
scaled: no
kernel: data
"""
# %% setup
import queue
import random
import threading
from collections import defaultdict

from cell_data import reviews

texts = reviews(6_000, length=60, seed=620)
random.seed(620)
SALTS = [random.getrandbits(64) for _ in range(32)]
MASK = (1 << 64) - 1
# %% cell
def signature(text):
    words = text.split()
    shingles = {" ".join(words[k:k + 3]) for k in range(len(words) - 2)}
    hashes = [hash(s) & MASK for s in shingles]
    return tuple(min(h ^ salt for h in hashes) for salt in SALTS)  # expect: AIP401


signatures = {}
tasks = queue.Queue()


def worker():
    while True:
        item = tasks.get()
        if item is None:
            break
        doc_id, text = item
        signatures[doc_id] = signature(text)  # expect: AIP401
        tasks.task_done()


threads = [threading.Thread(target=worker, daemon=True) for _ in range(4)]  # expect: AIP401
for t in threads:
    t.start()
for doc_id, text in enumerate(texts):
    tasks.put((doc_id, text))
tasks.join()
for t in threads:
    tasks.put(None)
buckets = defaultdict(list)
for doc_id, sig in signatures.items():
    for band in range(8):
        buckets[(band, sig[band * 4:band * 4 + 4])].append(doc_id)
candidates = sum(len(ids) * (len(ids) - 1) // 2 for ids in buckets.values())
