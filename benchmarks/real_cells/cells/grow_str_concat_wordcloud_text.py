# ruff: noqa
"""All reviews joined into one text for a word cloud with text += review + " " at the top level of a cell.

source: word-cloud tutorials and EDA notebooks on review data sets (text = ""; for review in
        df.description: text += review + " "; then WordCloud().generate(text)), next to the
        " ".join(...) form others use; in a cell the string is a global, so CPython cannot grow it
        in place and every step copies the text so far
family: growing
kind: slow
verdict: AIP907
rewrite: yes: text = " ".join(reviews["description"]) + " " (the same string)
size: 9,000 reviews of 40 words (a 2.2 MB text)
scaled: yes: the wine-review notebooks join 130,000 descriptions; at that size this loop runs for many minutes (the copies grow with the square of the text), so about a fourteenth of them
kernel: data
"""
# %% setup
import pandas as pd

from cell_data import reviews as make_reviews

reviews = pd.DataFrame({"description": make_reviews(9_000, length=40, seed=211)})
# %% cell
text = ""
for review in reviews["description"]:  # expect: *
    text += review + " "  # expect: *
words = len(text.split())
