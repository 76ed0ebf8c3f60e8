# ruff: noqa
"""A column of dicts (parsed API records) spread into columns with .apply(pd.Series), one Series per row.

source: notebooks flattening JSON returned by web APIs and the Kaggle TMDB / tweets data sets
        (df["user"].apply(pd.Series), then pd.concat([df.drop(columns="user"), expanded], axis=1)),
        the answer many tutorials give before pd.json_normalize or pd.DataFrame(col.tolist())
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: pd.DataFrame(tweets["user"].tolist(), index=tweets.index) (the same columns and values)
size: 3,000 records of 6 fields (a day of one hashtag's tweets)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(202)
n = 3_000
users = [{"id": int(i), "followers": int(f), "friends": int(g), "verified": bool(v),
          "lang": lang, "statuses": int(s)}
         for i, f, g, v, lang, s in zip(rng.integers(1, 10**9, n), rng.integers(0, 50_000, n),
                                        rng.integers(0, 3_000, n), rng.random(n) < 0.05,
                                        rng.choice(["en", "es", "fr", "de", "pt"], n), rng.integers(0, 90_000, n))]
tweets = pd.DataFrame({"tweet_id": np.arange(n), "retweets": rng.integers(0, 500, n), "user": users})
# %% cell
expanded = tweets["user"].apply(pd.Series)  # expect: *
flat = pd.concat([tweets.drop(columns="user"), expanded], axis=1)
by_lang = flat.groupby("lang")["followers"].median()
