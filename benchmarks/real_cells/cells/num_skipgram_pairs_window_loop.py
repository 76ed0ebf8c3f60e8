# ruff: noqa
"""Skip-gram training pairs for word2vec built token by token: every centre word, every offset in the window, one tuple appended.

source: "word2vec from scratch in PyTorch" tutorials and notebooks (word2idx from the vocabulary;
        for sentence in tokenized_corpus: indices = [word2idx[w] for w in sentence]; for
        center_word_pos in range(len(indices)): for w in range(-window_size, window_size + 1):
        skip positions outside the sentence and the centre; idx_pairs.append((centre, context));
        then np.array(idx_pairs)), before the embedding model is trained on the pairs
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: concatenate the sentences' indices once (with each sentence's id); for each offset w in 1..window, one slice pair (idx[:-w], idx[w:]) masked where the sentence ids differ, in both directions (the same pairs, grouped by offset instead of by centre word)
size: 24,000 sentences of 6 to 14 tokens (about 240,000 tokens), window 2
scaled: no
kernel: data
unsure: the body collects index pairs rather than doing arithmetic; AIP201 (a Python loop doing per element what NumPy slicing does at once) is the closest code
"""
# %% setup
import numpy as np
from cell_data import words

rng = np.random.default_rng(307)
lengths = rng.integers(6, 15, 24_000)
tokens = words(int(lengths.sum()), seed=307)
starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
tokenized_corpus = [tokens[s:s + n] for s, n in zip(starts, lengths)]
vocabulary = sorted(set(tokens))
word2idx = {w: i for i, w in enumerate(vocabulary)}
# %% cell
window_size = 2
idx_pairs = []
for sentence in tokenized_corpus:  # expect: AIP201
    indices = [word2idx[word] for word in sentence]
    for center_word_pos in range(len(indices)):  # expect: AIP201
        for w in range(-window_size, window_size + 1):  # expect: AIP201
            context_word_pos = center_word_pos + w  # expect: AIP201
            if context_word_pos < 0 or context_word_pos >= len(indices) or center_word_pos == context_word_pos:  # expect: AIP201
                continue
            idx_pairs.append((indices[center_word_pos], indices[context_word_pos]))  # expect: AIP201
idx_pairs = np.array(idx_pairs)
