# ruff: noqa
"""The char-RNN tutorial's confusion-matrix loop: evaluate() on random names, autograd on.

source: PyTorch tutorials (pytorch/tutorials), intermediate_source/char_rnn_classification_tutorial.py
        ("Evaluating the Results": n_confusion examples through evaluate(), which runs the RNN
        letter by letter without torch.no_grad)
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: torch.no_grad() around the loop (a modest gain on the CPU: the RNN steps are small)
size: 2,000 names, hidden size 128
scaled: yes: the tutorial runs 10,000 names
kernel: torch
unsure: building each name's tensor letter by letter (lineToTensor, inside randomTrainingExample)
        is a real second cost here: AIP201 on that line is accepted, not required
"""
# %% setup
import random
import string

import torch
from cell_data import names
from torch import nn

torch.manual_seed(7)
random.seed(7)
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
category_lines = names(per_language=300, seed=83)
all_categories = list(category_lines)
n_categories = len(all_categories)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        return self.softmax(self.i2o(combined)), self.i2h(combined)

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 128, n_categories)


def randomTrainingExample():
    category = random.choice(all_categories)
    line = random.choice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    return category, line, category_tensor, lineToTensor(line)


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output
# %% cell
confusion = torch.zeros(n_categories, n_categories)
n_confusion = 2000
for i in range(n_confusion):  # expect: AIP502
    category, line, category_tensor, line_tensor = randomTrainingExample()  # ok: AIP201
    output = evaluate(line_tensor)  # expect: AIP502
    guess, guess_i = categoryFromOutput(output)
    category_i = all_categories.index(category)
    confusion[category_i][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
