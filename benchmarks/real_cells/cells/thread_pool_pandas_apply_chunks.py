# ruff: noqa
"""A text-cleaning apply "parallelised" over frame chunks in a thread pool: the threads take turns holding the GIL.

source: blog posts and notebooks on speeding up pandas apply (np.array_split(df, n) or slices of the frame, then
        pool.map(lambda chunk: chunk["text"].apply(clean_text), chunks) and pd.concat of the
        results), here with concurrent.futures threads, as the ones that try threads first write it
family: threads
kind: slow
verdict: AIP902|AIP907
rewrite: yes: a process pool (multiprocessing.Pool) over the same chunks, or the apply alone: the same cleaned column
size: 60,000 reviews of 30 words in 4 chunks, 4 threads
scaled: no
kernel: data
"""
# %% setup
import re
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from cell_data import STOP_WORDS, reviews

df = pd.DataFrame({"text": reviews(60_000, seed=214)})
stop = set(STOP_WORDS)
non_letters = re.compile(r"[^a-z ]")
# %% cell
def clean_text(text):
    words = non_letters.sub(" ", text.lower()).split()  # expect: AIP401
    return " ".join(w for w in words if w not in stop and len(w) > 2)  # expect: AIP401


def clean_chunk(chunk):
    return chunk["text"].apply(clean_text)  # expect: AIP401


chunks = [df.iloc[k:k + 15_000] for k in range(0, len(df), 15_000)]
with ThreadPoolExecutor(max_workers=4) as executor:  # expect: AIP401
    cleaned = pd.concat(executor.map(clean_chunk, chunks))  # expect: AIP401
df["clean"] = cleaned
