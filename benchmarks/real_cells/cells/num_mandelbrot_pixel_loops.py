# ruff: noqa
"""The Mandelbrot set's escape counts computed pixel by pixel: two index loops call a pure-Python iteration.

source: Nicolas Rougier's "From Python to Numpy" (rougier/from-python-to-numpy), chapter "Problem
        vectorization", the Mandelbrot example's Python version (def mandelbrot(z, maxiter) iterating
        z = z*z + c; mandelbrot_set(xmin, xmax, ymin, ymax, xn, yn, maxiter) filling the image in two
        loops over its pixels), the shape Numba and Cython tutorials also start from
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the NumPy version of the same chapter: all pixels iterated at once on a complex grid, masks for those not yet escaped (the same counts)
size: 320 x 240 pixels, 80 iterations at most
scaled: yes: the book draws a larger image; this one at a size a notebook cell draws in about a second
kernel: data
"""
# %% setup
import numpy as np

xmin, xmax, ymin, ymax = -2.25, 0.75, -1.25, 1.25
xn, yn, maxiter = 320, 240, 80


def escape_count(c, maxiter):
    z = 0
    for n in range(maxiter):
        if abs(z) > 2:
            return n
        z = z * z + c
    return maxiter
# %% cell
xs = np.linspace(xmin, xmax, xn)
ys = np.linspace(ymin, ymax, yn)
counts = np.zeros((yn, xn), dtype=int)
for j in range(yn):  # expect: AIP201
    for i in range(xn):  # expect: AIP201
        counts[j, i] = escape_count(complex(xs[i], ys[j]), maxiter)  # expect: AIP201
inside = (counts == maxiter).mean()
