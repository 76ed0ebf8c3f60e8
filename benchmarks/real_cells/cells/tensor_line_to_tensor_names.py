# ruff: noqa
"""Every surname turned into a one-hot tensor by a helper that sets one element per character.

source: PyTorch tutorials (pytorch/tutorials), intermediate_source/char_rnn_classification_tutorial.py
        (letterToIndex with all_letters.find, lineToTensor setting tensor[li][0][index] = 1)
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: index the characters once and use torch.nn.functional.one_hot (or scatter)
size: 9,000 names of 4 to 12 letters
scaled: yes: the tutorial's 18 files hold 20,074 names
kernel: torch
"""
# %% setup
import string

import torch
from cell_data import names

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
category_lines = names(per_language=500)
all_categories = list(category_lines)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor
# %% cell
line_tensors = {}
for category in all_categories:
    line_tensors[category] = [lineToTensor(line) for line in category_lines[category]]  # expect: AIP201
