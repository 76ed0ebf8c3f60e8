# ruff: noqa
"""The d2l text pipeline: read a book, keep letters, tokenise into characters, build a vocabulary.

source: Dive into Deep Learning (d2l-ai/d2l-en), chapter_recurrent-neural-networks/text-sequence.md
        (_preprocess with re.sub, _tokenize as list(text), the Vocab class with a Counter, corpus =
        [vocab[token] for token in tokens])
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: one pass with dict lookups, linear in the text
size: about 180,000 characters (The Time Machine's length)
scaled: no
kernel: data
unsure: the comprehension makes one method call per character; a translate-table rewrite exists but
        saves little at this size
"""
# %% setup
import collections
import re

from cell_data import temp_dir, words

book_path = temp_dir() / "timemachine.txt"
book_path.write_text("\n".join(" ".join(words(12, seed=s)) for s in range(2_600)), encoding="utf-8")


class Vocab:
    def __init__(self, tokens=[], min_freq=0, reserved_tokens=[]):
        counter = collections.Counter(tokens)
        self.token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
        self.idx_to_token = list(sorted(set(["<unk>"] + reserved_tokens + [
            token for token, freq in self.token_freqs if freq >= min_freq])))
        self.token_to_idx = {token: idx for idx, token in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, self.unk)
        return [self.__getitem__(token) for token in tokens]

    @property
    def unk(self):
        return self.token_to_idx["<unk>"]
# %% cell
with open(book_path) as f:
    raw_text = f.read()
text = re.sub("[^A-Za-z]+", " ", raw_text).lower()
tokens = list(text)
vocab = Vocab(tokens)
corpus = [vocab[token] for token in tokens]
len(corpus), len(vocab)
