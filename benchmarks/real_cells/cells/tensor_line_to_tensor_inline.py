# ruff: noqa
"""lineToTensor defined in the measured cell: a Python loop setting one tensor element per letter.

source: PyTorch tutorials (pytorch/tutorials), intermediate_source/char_rnn_classification_tutorial.py
        ("Turning Names into Tensors"), with the helper and its use in one cell
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: torch.nn.functional.one_hot of the letters' indices
size: 6,000 names
scaled: yes: the tutorial's data has 20,074 names
kernel: torch
"""
# %% setup
import string

import torch
from cell_data import names

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
names_list = [n for group in names(per_language=334, seed=41).values() for n in group]


def letterToIndex(letter):
    return all_letters.find(letter)
# %% cell
def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):  # expect: AIP201
        tensor[li][0][letterToIndex(letter)] = 1  # expect: AIP201
    return tensor


line_tensors = [lineToTensor(name) for name in names_list]
