# ruff: noqa
"""A gravitational N-body simulation stepped with leapfrog, each body's acceleration summed over the others in two Python loops.

source: computational-physics course notebooks and blog tutorials on the N-body problem (a
        get_acc(pos, mass) helper with two nested loops over the bodies adding G * m_j * dx / r^3
        with a softening length, called once per kick-drift-kick step), the version Philip Mocz's
        "Create Your Own N-body Simulation (With Python)" writes with broadcasting instead
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: dx = pos[:, 0:1].T - pos[:, 0:1] (and dy, dz), inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2) ** -1.5 with the diagonal zeroed, acc = G * (dx * inv_r3) @ mass (the same accelerations to float rounding)
size: 80 bodies, 12 leapfrog steps (13 acceleration passes of 6,320 pairs)
scaled: yes: the tutorials run a hundred bodies for hundreds of steps while drawing them; a few steps here
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(301)
N, n_steps = 80, 12
G, softening, dt = 1.0, 0.1, 0.01
mass = np.full(N, 20.0 / N)
pos = rng.normal(size=(N, 3))
vel = rng.normal(size=(N, 3))
vel -= vel.mean(0)
# %% cell
def get_acc(pos, mass):
    n = len(pos)
    acc = np.zeros((n, 3))
    for i in range(n):  # expect: AIP201
        for j in range(n):  # expect: AIP201
            if i == j:
                continue
            dx, dy, dz = pos[j] - pos[i]  # expect: AIP201
            inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2) ** -1.5  # expect: AIP201
            acc[i, 0] += G * mass[j] * dx * inv_r3  # expect: AIP201
            acc[i, 1] += G * mass[j] * dy * inv_r3  # expect: AIP201
            acc[i, 2] += G * mass[j] * dz * inv_r3  # expect: AIP201
    return acc


acc = get_acc(pos, mass)  # expect: AIP201
for step in range(n_steps):
    vel += acc * dt / 2.0
    pos += vel * dt
    acc = get_acc(pos, mass)  # expect: AIP201
    vel += acc * dt / 2.0
kinetic = 0.5 * np.sum(mass[:, None] * vel**2)
