# ruff: noqa
"""sum_of_lists(1000000): list comprehensions of bit arithmetic inside a function, then sum().

source: Python Data Science Handbook (jakevdp/PythonDataScienceHandbook), notebook 01.07
        "Profiling and Timing Code": sum_of_lists is defined in one cell and profiled with
        %prun sum_of_lists(1000000)
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the same with np.arange and NumPy's ^ and >>
size: N = 1,000,000, five passes
scaled: no
kernel: data
"""
# %% setup
def sum_of_lists(N):
    total = 0
    for i in range(5):
        L = [j ^ (j >> i) for j in range(N)]
        total += sum(L)
    return total
# %% cell
sum_of_lists(1000000)  # expect: AIP201
