# ruff: noqa
"""Token batches sampled from a binary token file by a nanoGPT-style get_batch() that maps the file with np.memmap again on every call, as its comment says to avoid a memory leak.

source: Andrej Karpathy's nanoGPT (train.py's get_batch: data = np.memmap(os.path.join(data_dir,
        "train.bin"), dtype=np.uint16, mode="r") at every call; ix = torch.randint(len(data) -
        block_size, (batch_size,)); x and y stacked from slices) and the notebooks that copy it,
        here sampling batches to estimate the unigram statistics of the training data
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: np.memmap maps the file without reading it (microseconds per call) and only the sliced pages are read, from the page cache; nanoGPT recreates the map per batch on purpose
size: a file of 10,000,000 uint16 tokens (20 MB), 200 batches of 32 x 256
scaled: yes: nanoGPT's OpenWebText train.bin holds about 9 billion tokens
kernel: torch
"""
# %% setup
import numpy as np
import torch
from cell_data import temp_dir

torch.manual_seed(522)
rng = np.random.default_rng(522)
vocab_size, block_size, batch_size = 50_304, 256, 32
bin_path = temp_dir() / "train.bin"
zipf = 1.0 / np.arange(1, vocab_size + 1) ** 1.05
rng.choice(vocab_size, 10_000_000, p=zipf / zipf.sum()).astype(np.uint16).tofile(bin_path)


def get_batch():
    # a fresh map of the file on each call keeps the process's memory from creeping up
    tokens = np.memmap(bin_path, dtype=np.uint16, mode="r")
    starts = torch.randint(len(tokens) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy(tokens[s:s + block_size].astype(np.int64)) for s in starts])
    y = torch.stack([torch.from_numpy(tokens[s + 1:s + 1 + block_size].astype(np.int64)) for s in starts])
    return x, y
# %% cell
counts = torch.zeros(vocab_size)
for step in range(200):
    x, y = get_batch()
    counts += torch.bincount(y.flatten(), minlength=vocab_size)
p = counts / counts.sum()
unigram_loss = -(p[p > 0] * p[p > 0].log()).sum()
