# ruff: noqa
"""A dense layer's outputs computed with nested zip loops over lists, for a batch of samples.

source: "Neural Networks from Scratch in Python" (Sentdex/nnfs_book), chapter 2 "Coding Our First
        Neurons": for neuron_weights, neuron_bias in zip(weights, biases): neuron_output = 0;
        for n_input, weight in zip(inputs, neuron_weights): neuron_output += n_input * weight;
        neuron_output += neuron_bias; layer_outputs.append(neuron_output), before np.dot
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: np.dot(np.array(batch), np.array(weights).T) + biases (float sums in another order: equal within 1e-9)
size: 2,000 samples of 64 inputs into 32 neurons
scaled: yes: the book's layer has 3 neurons of 4 inputs and one sample
kernel: data
"""
# %% setup
import random

random.seed(121)
batch = [[random.uniform(-1, 1) for _ in range(64)] for _ in range(2_000)]
weights = [[random.gauss(0, 0.1) for _ in range(64)] for _ in range(32)]
biases = [random.uniform(-0.5, 0.5) for _ in range(32)]
# %% cell
batch_outputs = []
for inputs in batch:  # expect: AIP201
    layer_outputs = []
    for neuron_weights, neuron_bias in zip(weights, biases):  # expect: AIP201
        neuron_output = 0
        for n_input, weight in zip(inputs, neuron_weights):  # expect: AIP201
            neuron_output += n_input * weight  # expect: AIP201
        neuron_output += neuron_bias
        layer_outputs.append(neuron_output)
    batch_outputs.append(layer_outputs)
