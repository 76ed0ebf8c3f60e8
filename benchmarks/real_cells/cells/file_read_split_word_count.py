# ruff: noqa
"""Word counts from .read().split() and a dict.get loop over two million words.

source: word-count examples of Python courses and d2l's text chapter (read the whole text, split,
        count with a dict), before collections.Counter
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: collections.Counter over the file's words, read line by line
size: 2,000,000 words (about 13 MB)
scaled: no
kernel: data
"""
# %% setup
from cell_data import temp_dir, words

text_path = temp_dir() / "corpus.txt"
text_path.write_text(" ".join(words(2_000_000, seed=93)), encoding="utf-8")
# %% cell
counts = {}
for word in open(text_path, encoding="utf-8").read().split():  # expect: AIP104
    counts[word] = counts.get(word, 0) + 1
