# ruff: noqa
"""A nearest-neighbour tour of the travelling-salesperson problem in the style of Norvig's TSP notebook: cities as complex numbers, min(unvisited, key=lambda c: distance(c, tour[-1])) at every step.

source: Peter Norvig's "The Traveling Salesperson Problem" notebook (pytudes: points as complex
        numbers, distance(A, B) = abs(A - B), nn_tsp picks min(unvisited, key=lambda C:
        distance(C, tour[-1]))) and the algorithm-course notebooks that follow it, on a few
        thousand random cities
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the cities in a NumPy complex array and a boolean mask of the visited ones: at each step np.abs(points - current) with the visited set to inf, then argmin (the same tour: random points have no ties)
size: 2,500 cities (about 3,100,000 distances)
scaled: no
kernel: data
unsure: the per-city work is a lambda calling abs() on complex numbers inside min(), not arithmetic
        written in a for loop; AIP201 names arithmetic per item, and any code on these lines is accepted
"""
# %% setup
import random

random.seed(510)
cities = [complex(random.randrange(1, 1_000), random.randrange(1, 1_000)) + complex(random.random(), random.random())
          for _ in range(2_500)]


def distance(A, B):
    return abs(A - B)


def tour_length(tour):
    return sum(distance(tour[i], tour[i - 1]) for i in range(len(tour)))
# %% cell
def nn_tsp(cities):
    start, *others = cities
    tour, unvisited = [start], set(others)
    while unvisited:  # expect: *
        C = min(unvisited, key=lambda C: distance(C, tour[-1]))  # expect: *
        tour.append(C)
        unvisited.remove(C)
    return tour


tour = nn_tsp(cities)  # expect: *
length = tour_length(tour)
