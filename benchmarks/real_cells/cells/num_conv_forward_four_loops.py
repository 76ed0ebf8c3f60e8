# ruff: noqa
"""A convolution layer's forward pass in four nested loops (examples, rows, columns, filters), one window at a time.

source: the Deep Learning Specialization's "Convolutional Neural Networks: Step by Step"
        assignment (course 4, week 1), as published in many course repositories: zero_pad,
        conv_single_step (np.multiply, np.sum, plus the bias) and conv_forward's four loops
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: an im2col view (np.lib.stride_tricks.sliding_window_view) and one np.tensordot with the filters
size: 10 images of 28 x 28 x 3, 16 filters of 3 x 3, stride 1, pad 1
scaled: yes: the assignment's test input is 2 x 5 x 7 x 4 (10 x 5 x 7 x 4 in the later check)
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(105)
A_prev = rng.standard_normal((10, 28, 28, 3))
W = rng.standard_normal((3, 3, 3, 16))
b = rng.standard_normal((1, 1, 1, 16))
hparameters = {"pad": 1, "stride": 1}


def zero_pad(X, pad):
    return np.pad(X, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="constant", constant_values=(0, 0))


def conv_single_step(a_slice_prev, W, b):
    s = np.multiply(a_slice_prev, W)
    Z = np.sum(s)
    return Z + float(b[0, 0, 0])


def conv_forward(A_prev, W, b, hparameters):
    m, n_H_prev, n_W_prev, n_C_prev = A_prev.shape
    f, f, n_C_prev, n_C = W.shape
    stride, pad = hparameters["stride"], hparameters["pad"]
    n_H = int((n_H_prev - f + 2 * pad) / stride) + 1
    n_W = int((n_W_prev - f + 2 * pad) / stride) + 1
    Z = np.zeros((m, n_H, n_W, n_C))
    A_prev_pad = zero_pad(A_prev, pad)
    for i in range(m):
        a_prev_pad = A_prev_pad[i]
        for h in range(n_H):
            vert_start = h * stride
            for w in range(n_W):
                horiz_start = w * stride
                for c in range(n_C):
                    a_slice_prev = a_prev_pad[vert_start:vert_start + f, horiz_start:horiz_start + f, :]
                    Z[i, h, w, c] = conv_single_step(a_slice_prev, W[:, :, :, c], b[:, :, :, c])
    return Z, (A_prev, W, b, hparameters)
# %% cell
Z, cache_conv = conv_forward(A_prev, W, b, hparameters)  # expect: AIP201
print("Z's mean =", np.mean(Z))
