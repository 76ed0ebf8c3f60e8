# ruff: noqa
"""Which allowed Wordle guesses are also possible answers: each guess looked up in the answer list.

source: Wordle solver notebooks and scripts that read the two official word lists (2,315 answers,
        12,972 allowed guesses) with f.read().split() into lists, then filter one by the other
        ([w for w in allowed if w in answers]) before scoring guesses
family: membership
kind: slow
verdict: AIP907
rewrite: yes: answers_set = set(answers) before the comprehension
size: 12,972 guesses against 2,315 answers
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(110)
letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
freq = np.array([8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.1,
                 6.0, 6.3, 9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.07])
pool = sorted({"".join(w) for w in rng.choice(letters, (20_000, 5), p=freq / freq.sum())})
order = rng.permutation(len(pool))
allowed = [pool[i] for i in order[:12_972]]
answers = [pool[i] for i in order[12_972:12_972 + 2_085]] + allowed[::56][:230]  # 10 % of answers are guesses too
# %% cell
both = [w for w in allowed if w in answers]  # expect: AIP202
print(len(both), "guesses can also be the answer")
