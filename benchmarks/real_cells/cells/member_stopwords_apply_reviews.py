# ruff: noqa
"""A remove_stopwords helper from an earlier cell, applied to a review column with Series.apply.

source: sentiment-analysis notebooks on the IMDB reviews (a cleaning function joining the words not
        in the stop-word list, applied to df['review'])
family: membership
kind: slow
verdict: AIP907
rewrite: yes: a set of stop words inside the helper
size: 15,000 reviews of 30 words
scaled: yes: the IMDB set has 50,000 reviews of about 230 words
kernel: data
"""
# %% setup
import pandas as pd
from cell_data import STOP_WORDS, reviews

stop_words = list(STOP_WORDS)
df = pd.DataFrame({"review": reviews(15_000)})


def remove_stopwords(text):
    return " ".join(w for w in text.split() if w not in stop_words)
# %% cell
df["clean"] = df["review"].apply(remove_stopwords)  # expect: AIP202
