# ruff: noqa
"""A cleaning helper that opens and reads the stop-word file on every call, applied to each review.

source: text-cleaning helpers in NLP notebooks and scripts that load their resource inside the
        function (def clean(text): with open("stopwords.txt") as f: stop = set(f.read().split());
        ...), then df["clean"] = df["review"].apply(clean): the file is read once per row
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: read the file once outside the helper (stop = set(...) at module level) and keep the same helper body (the same strings)
size: 20,000 reviews of 30 words, a stop-word file of 179 words
scaled: no
kernel: data
"""
# %% setup
import pandas as pd

from cell_data import STOP_WORDS, reviews, temp_dir

stop_path = temp_dir() / "stopwords.txt"
stop_path.write_text("\n".join(STOP_WORDS[:179]) + "\n", encoding="utf-8")
df = pd.DataFrame({"review": reviews(20_000, seed=133)})


def clean(text):
    with open(stop_path, encoding="utf-8") as f:
        stop = set(f.read().split())
    return " ".join(w for w in text.lower().split() if w not in stop)
# %% cell
df["clean"] = df["review"].apply(clean)  # expect: *
lengths = df["clean"].str.split().str.len().describe()
