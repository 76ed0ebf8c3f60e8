# ruff: noqa
"""A tokenised corpus packed into training blocks: the documents' id lists flattened once with itertools.chain.from_iterable into np.fromiter, then reshaped.

source: language-model data-preparation scripts and notebooks (GPT-style "concatenate all texts and
        split into blocks of block_size", as the Hugging Face run_clm group_texts step and
        nanoGPT's prepare scripts do) that flatten the token ids once rather than growing an array
family: growing
kind: healthy
verdict: AIP907|none
rewrite: no: each id is copied once into an array sized from the lengths; the blocks are views of it
size: 40,000 documents of 10 to 60 ids (about 1.4 million ids), blocks of 129
scaled: no
kernel: data
"""
# %% setup
from itertools import chain

import numpy as np

rng = np.random.default_rng(519)
doc_lengths = rng.integers(10, 61, 40_000)
vocab_size = 32_000
token_ids = [rng.integers(1, vocab_size, k).tolist() + [0] for k in doc_lengths]
block = 129
# %% cell
lengths = np.fromiter((len(doc) for doc in token_ids), dtype=np.int64, count=len(token_ids))
flat = np.fromiter(chain.from_iterable(token_ids), dtype=np.int32, count=int(lengths.sum()))
offsets = np.concatenate([[0], np.cumsum(lengths)])
n_blocks = len(flat) // block
blocks = flat[: n_blocks * block].reshape(n_blocks, block)
inputs, targets = blocks[:, :-1], blocks[:, 1:]
