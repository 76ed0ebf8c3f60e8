# ruff: noqa
"""Language identification with character-trigram profiles (the out-of-place measure): for each trigram of a document's ranked profile, `in` the language's ranked list and list.index for its rank.

source: NLP course notebooks and blog posts implementing Cavnar and Trenkle's n-gram text
        categorisation (profiles as lists of the 300 most frequent trigrams; def
        out_of_place(doc, lang): for r, g in enumerate(doc): d += abs(r - lang.index(g)) if g in
        lang else max_penalty), the language with the smallest distance chosen for each document
family: membership
kind: slow
verdict: AIP907
rewrite: yes: each language profile made a dict {gram: rank} once; d += abs(r - ranks[g]) if g in ranks else max_penalty (the same distances and predictions)
size: 100 documents against 8 language profiles of 300 trigrams
scaled: no
kernel: data
"""
# %% setup
from collections import Counter

import numpy as np

rng = np.random.default_rng(710)
alphabet = list("abcdefghijklmnopqrstuvwxyz ")
languages = ["en", "de", "fr", "es", "it", "nl", "pt", "sv"]
letter_p = {}
for lang in languages:
    w = rng.gamma(0.6, 1.0, len(alphabet))
    w[-1] = w.sum() * 0.2
    letter_p[lang] = w / w.sum()


def sample_text(lang, n_chars):
    return "".join(rng.choice(alphabet, n_chars, p=letter_p[lang]))


def profile(text, top=300):
    grams = Counter(text[i:i + 3] for i in range(len(text) - 2))
    return [g for g, _ in grams.most_common(top)]


profiles = {lang: profile(sample_text(lang, 60_000)) for lang in languages}
true_lang = rng.choice(languages, 100)
doc_profiles = [profile(sample_text(lang, 4_000)) for lang in true_lang]
max_penalty = 300
# %% cell
def out_of_place(doc_profile, lang_profile):
    d = 0
    for rank, gram in enumerate(doc_profile):
        if gram in lang_profile:  # expect: AIP202
            d += abs(rank - lang_profile.index(gram))  # expect: AIP202
        else:
            d += max_penalty
    return d


predicted = [min(languages, key=lambda lang: out_of_place(doc, profiles[lang])) for doc in doc_profiles]  # expect: AIP202
accuracy = np.mean(np.array(predicted) == true_lang)
