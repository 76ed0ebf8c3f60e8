# ruff: noqa
"""An S-expression reader in the style of Norvig's lis.py: each token taken with tokens.pop(0), which shifts the whole rest of the list.

source: Peter Norvig's "(How to Write a (Lisp) Interpreter (in Python))" (lis.py: tokenize by
        padding parentheses and splitting; read_from_tokens(tokens) takes token = tokens.pop(0)
        and recurses on "("), and the interpreter notebooks built on it, here reading a data file
        of a few thousand records written as S-expressions
family: membership
kind: slow
verdict: AIP907
rewrite: yes: read from an iterator (tokens = iter(...); token = next(tokens), with one token of lookahead) or a collections.deque with popleft(): the same nested lists
size: 66,000 tokens (11,000 records of six tokens)
scaled: no
kernel: data
unsure: no rule of the catalog names list.pop(0) used as a queue (each call moves every later element);
        AIP202 names a list scanned per item, the nearest cost, and any code on these lines is accepted
"""
# %% setup
import numpy as np

rng = np.random.default_rng(415)
records = [f"(rec {i} {rng.integers(0, 999)} {rng.uniform(0, 1):.3f})" for i in range(11_000)]
source = "(" + " ".join(records) + ")"


def tokenize(chars):
    return chars.replace("(", " ( ").replace(")", " ) ").split()


def atom(token):
    try:
        return int(token)
    except ValueError:
        try:
            return float(token)
        except ValueError:
            return token
# %% cell
def read_from_tokens(tokens):
    token = tokens.pop(0)  # expect: *
    if token == "(":
        L = []
        while tokens[0] != ")":
            L.append(read_from_tokens(tokens))
        tokens.pop(0)  # expect: *
        return L
    return atom(token)


data = read_from_tokens(tokenize(source))  # expect: *
mean_score = sum(rec[3] for rec in data) / len(data)
