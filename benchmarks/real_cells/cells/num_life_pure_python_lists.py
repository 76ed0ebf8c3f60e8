# ruff: noqa
"""Conway's Game of Life on a list of lists, neighbours counted cell by cell, for a few generations.

source: Nicolas Rougier's "From Python to Numpy" (rougier/from-python-to-numpy), chapter "Code
        vectorization", the pure Python Game of Life (compute_neighbours and iterate over a list
        of lists) that the chapter then rewrites with NumPy slices
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: neighbour counts as a sum of eight shifted NumPy slices, the rules as boolean masks
size: a 240 x 240 board, 30 generations
scaled: yes: the chapter shows a 6 x 6 glider
kernel: data
"""
# %% setup
import random

random.seed(102)
SIZE = 240


def compute_neighbours(Z):
    rows, cols = len(Z), len(Z[0])
    N = [[0] * cols for _ in range(rows)]
    for x in range(1, rows - 1):
        for y in range(1, cols - 1):
            N[x][y] = (Z[x - 1][y - 1] + Z[x][y - 1] + Z[x + 1][y - 1]
                       + Z[x - 1][y] + Z[x + 1][y]
                       + Z[x - 1][y + 1] + Z[x][y + 1] + Z[x + 1][y + 1])
    return N


def iterate(Z):
    N = compute_neighbours(Z)
    for x in range(1, len(Z) - 1):
        for y in range(1, len(Z[0]) - 1):
            if Z[x][y] == 1 and (N[x][y] < 2 or N[x][y] > 3):
                Z[x][y] = 0
            elif Z[x][y] == 0 and N[x][y] == 3:
                Z[x][y] = 1
    return Z


board = [[0] + [int(random.random() < 0.3) for _ in range(SIZE - 2)] + [0] for _ in range(SIZE)]
board[0] = [0] * SIZE
board[-1] = [0] * SIZE
# %% cell
for generation in range(30):  # expect: AIP201
    iterate(board)  # expect: AIP201
alive = sum(map(sum, board))
