# ruff: noqa
"""1-D linear convection stepped in time with an inner Python loop over the grid points.

source: Lorena Barba's "CFD Python: 12 steps to Navier-Stokes" (barbagroup/CFDPython), Step 1:
        for n in range(nt): un = u.copy(); for i in range(1, nx): u[i] = un[i] - c * dt / dx *
        (un[i] - un[i - 1]), before the "Array Operations" lesson's u[1:] = un[1:] - c * dt / dx *
        (un[1:] - un[:-1])
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the inner loop as u[1:] = un[1:] - c * dt / dx * (un[1:] - un[:-1]) (the same float64 operations per point)
size: 2,001 grid points, 600 time steps
scaled: yes: the lesson uses 41 points and 25 steps, then asks what happens as nx grows
kernel: data
"""
# %% setup
import numpy as np

nx, nt, c = 2_001, 600, 1.0
dx = 2 / (nx - 1)
dt = 0.2 * dx / c
u = np.ones(nx)
u[int(0.5 / dx):int(1 / dx + 1)] = 2
# %% cell
for n in range(nt):  # expect: AIP201
    un = u.copy()
    for i in range(1, nx):  # expect: AIP201
        u[i] = un[i] - c * dt / dx * (un[i] - un[i - 1])  # expect: AIP201
peak = u.max()
