# ruff: noqa
"""Gradient descent for one-variable linear regression whose cost and gradient loop over the examples.

source: the Machine Learning Specialization's week-2 assignment (C1_W2, "Linear regression with
        one variable", restaurant profits against city population): compute_cost and
        compute_gradient are written with `for i in range(m)` over the 97 examples, and
        gradient_descent calls both for 1,500 iterations with alpha 0.01
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: f_wb = w * x + b on the whole arrays, then np.mean of the errors
size: 97 examples, 1,500 iterations
scaled: no
kernel: data
"""
# %% setup
import copy
import math

import numpy as np

rng = np.random.default_rng(97)
x_train = rng.uniform(5.0, 22.5, 97)
y_train = 1.19 * x_train - 3.9 + rng.normal(0, 3.0, 97)


def compute_cost(x, y, w, b):
    m = x.shape[0]
    cost_sum = 0
    for i in range(m):
        f_wb = w * x[i] + b
        cost = (f_wb - y[i]) ** 2
        cost_sum = cost_sum + cost
    return (1 / (2 * m)) * cost_sum


def compute_gradient(x, y, w, b):
    m = x.shape[0]
    dj_dw = 0
    dj_db = 0
    for i in range(m):
        f_wb = w * x[i] + b
        dj_dw_i = (f_wb - y[i]) * x[i]
        dj_db_i = f_wb - y[i]
        dj_db += dj_db_i
        dj_dw += dj_dw_i
    return dj_dw / m, dj_db / m


def gradient_descent(x, y, w_in, b_in, cost_function, gradient_function, alpha, num_iters):
    J_history = []
    w_history = []
    w = copy.deepcopy(w_in)
    b = b_in
    for i in range(num_iters):
        dj_dw, dj_db = gradient_function(x, y, w, b)
        w = w - alpha * dj_dw
        b = b - alpha * dj_db
        if i < 100000:
            J_history.append(cost_function(x, y, w, b))
        if i % math.ceil(num_iters / 10) == 0:
            w_history.append(w)
    return w, b, J_history, w_history
# %% cell
initial_w = 0.
initial_b = 0.
iterations = 1500
alpha = 0.01
w, b, _, _ = gradient_descent(x_train, y_train, initial_w, initial_b,  # expect: AIP201
                              compute_cost, compute_gradient, alpha, iterations)  # expect: AIP201
print("w,b found by gradient descent:", w, b)
