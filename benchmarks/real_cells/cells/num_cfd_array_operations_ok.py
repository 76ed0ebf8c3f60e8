# ruff: noqa
"""1-D linear convection stepped in time with whole-array slices: the time loop stays, the grid loop is gone.

source: Lorena Barba's "CFD Python: 12 steps to Navier-Stokes" (barbagroup/CFDPython), "Array
        Operations with NumPy": for n in range(nt): un = u.copy(); u[1:] = un[1:] - c * dt / dx *
        (un[1:] - un[:-1])
family: numeric-loop
kind: healthy
verdict: AIP907|none
rewrite: no: each step needs the one before (a time loop cannot be one expression), and each step is already one array expression
size: 200,001 grid points, 3,000 time steps
scaled: yes: the lesson uses 81 points; here a fine grid
kernel: data
"""
# %% setup
import numpy as np

nx, nt, c = 200_001, 3_000, 1.0
dx = 2 / (nx - 1)
dt = 0.2 * dx / c
u = np.ones(nx)
u[int(0.5 / dx):int(1 / dx + 1)] = 2
# %% cell
for n in range(nt):
    un = u.copy()
    u[1:] = un[1:] - c * dt / dx * (un[1:] - un[:-1])
peak = u.max()
