# ruff: noqa
"""Text sampled from a character-level GRU, one character at a time, with autograd left on.

source: Sean Robertson's practical-pytorch (spro/practical-pytorch), char-rnn-generation: an
        nn.Embedding, nn.GRU and nn.Linear model, and evaluate(prime_str, predict_len,
        temperature) that feeds the primer, then samples each next character with
        torch.multinomial over output.data.view(-1).div(temperature).exp(), without torch.no_grad
family: no-grad
kind: slow
verdict: AIP907
rewrite: yes: torch.no_grad() (or inference_mode) around the sampling (a modest gain on the CPU: each step is small)
size: 30 samples of 120 characters, hidden size 100, one layer
scaled: no
kernel: torch
"""
# %% setup
import string

import torch
from torch import nn

torch.manual_seed(117)
all_characters = string.printable
n_characters = len(all_characters)


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, n_layers=1):
        super().__init__()
        self.hidden_size, self.n_layers = hidden_size, n_layers
        self.encoder = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)
        self.decoder = nn.Linear(hidden_size, output_size)

    def forward(self, input, hidden):
        output, hidden = self.gru(self.encoder(input.view(1, -1)).view(1, 1, -1), hidden)
        return self.decoder(output.view(1, -1)), hidden

    def init_hidden(self):
        return torch.zeros(self.n_layers, 1, self.hidden_size)


decoder = CharRNN(n_characters, 100, n_characters)


def char_tensor(text):
    return torch.tensor([all_characters.index(c) for c in text], dtype=torch.long)


def evaluate(prime_str="A", predict_len=100, temperature=0.8):
    hidden = decoder.init_hidden()
    prime_input = char_tensor(prime_str)
    predicted = prime_str
    for p in range(len(prime_str) - 1):
        _, hidden = decoder(prime_input[p], hidden)
    inp = prime_input[-1]
    for p in range(predict_len):
        output, hidden = decoder(inp, hidden)
        output_dist = output.data.view(-1).div(temperature).exp()
        top_i = torch.multinomial(output_dist, 1)[0]
        predicted_char = all_characters[top_i]
        predicted += predicted_char
        inp = char_tensor(predicted_char)
    return predicted
# %% cell
samples = [evaluate("Th", 120, temperature=0.8) for _ in range(30)]  # expect: AIP502
longest = max(samples, key=len)
