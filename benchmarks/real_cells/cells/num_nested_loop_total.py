# ruff: noqa
"""A 1000 x 1000 nested loop accumulating i * (-1) ** j, as timed with %%time.

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 01.07
        "Profiling and Timing Code" (the %%time cell)
family: numeric-loop
kind: slow
verdict: AIP907|none
rewrite: yes: the j-sum has a closed form (or NumPy over a grid)
size: 1,000,000 iterations
scaled: no
kernel: data
unsure: about 0.1 s here, close to the verdict's minimum number of samples
"""
# %% setup
# %% cell
total = 0
for i in range(1000):
    for j in range(1000):  # expect: AIP201
        total += i * (-1) ** j  # expect: AIP201
