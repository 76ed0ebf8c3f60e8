# ruff: noqa
"""A spelling corrector's candidates: every edit one or two letters away, kept when the word counter knows it.

source: Peter Norvig's "How to Write a Spelling Corrector" (norvig.com/spell-correct.html and the
        notebooks that follow it): WORDS = Counter(words(open('big.txt').read())), edits1 and
        edits2, known(words) = set(w for w in words if w in WORDS), correction = max(candidates,
        key=P)
family: membership
kind: healthy
verdict: AIP907|none
rewrite: no: the lookups are in a Counter (a hash table); the candidates are the algorithm
size: a counter of 32,000 distinct words, 60 misspellings (a few need two edits)
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

from cell_data import words

WORDS = Counter(words(600_000, seed=115) + [f"{a}{b}ing" for a in "bcdfghlmnprst" for b in "aeiou"] * 3)
N = sum(WORDS.values())


def P(word):
    return WORDS[word] / N


def known(words):
    return set(w for w in words if w in WORDS)


def edits1(word):
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = [L + R[1:] for L, R in splits if R]
    transposes = [L + R[1] + R[0] + R[2:] for L, R in splits if len(R) > 1]
    replaces = [L + c + R[1:] for L, R in splits if R for c in letters]
    inserts = [L + c + R for L, R in splits for c in letters]
    return set(deletes + transposes + replaces + inserts)


def edits2(word):
    return (e2 for e1 in edits1(word) for e2 in edits1(e1))


def candidates(word):
    return known([word]) or known(edits1(word)) or known(edits2(word)) or [word]


def correction(word):
    return max(candidates(word), key=P)


typos = ["flim", "moive", "storry", "plott", "actr", "scnee", "musci", "grat", "godo", "boringg",
         "funy", "lovee", "hte", "tiem", "poeple", "wrold", "charcter", "directr", "ende", "scrpit"] * 3
typos[::10] = ["bxing", "qzing", "mvsic", "fylm", "dirxtor", "chxraxter"]
# %% cell
fixed = [correction(w) for w in typos]
changed = sum(a != b for a, b in zip(typos, fixed))
