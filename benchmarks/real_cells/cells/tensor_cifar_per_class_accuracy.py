# ruff: noqa
"""Accuracy per class counted by zipping label and prediction tensors, one element at a time.

source: PyTorch tutorials (pytorch/tutorials), beginner_source/blitz/cifar10_tutorial.py, "what are
        the classes that performed well": for label, prediction in zip(labels, predictions): if
        label == prediction: correct_pred[classes[label]] += 1; total_pred[classes[label]] += 1
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: torch.bincount(labels[labels == predictions], minlength=10) and torch.bincount(labels, minlength=10) (the same counts)
size: 100,000 predictions of 10 classes
scaled: yes: the tutorial counts its 10,000 test images; here ten evaluation passes' worth
kernel: torch
"""
# %% setup
import torch

torch.manual_seed(130)
classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
labels = torch.randint(0, 10, (100_000,))
predictions = torch.where(torch.rand(100_000) < 0.6, labels, torch.randint(0, 10, (100_000,)))
# %% cell
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
for label, prediction in zip(labels, predictions):  # expect: AIP201
    if label == prediction:  # expect: AIP201
        correct_pred[classes[label]] += 1  # expect: AIP201
    total_pred[classes[label]] += 1  # expect: AIP201
accuracy = {c: correct_pred[c] / total_pred[c] for c in classes}
