# ruff: noqa
"""GPS points tested against a district boundary one at a time with a pure-Python ray-casting function.

source: geospatial Python tutorials and blog posts ("point in polygon" by ray casting, as
        geospatialpython.com and many GIS course notebooks write it: def point_in_poly(x, y, poly):
        walk the polygon's edges, flip inside when a horizontal ray crosses one), applied to every
        point in a list comprehension, before matplotlib's Path.contains_points or shapely
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the same edge walk over arrays: for each edge, flip a boolean mask of all points at once (the same answer for every point)
size: 20,000 points, a boundary of 60 vertices
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(209)
angles = np.sort(rng.uniform(0, 2 * np.pi, 60))
radii = rng.uniform(0.6, 1.0, 60)
poly = list(zip((radii * np.cos(angles)).tolist(), (radii * np.sin(angles)).tolist()))
points = rng.uniform(-1.1, 1.1, (20_000, 2)).tolist()
# %% cell
def point_in_poly(x, y, poly):
    n = len(poly)
    inside = False
    p1x, p1y = poly[0]
    for i in range(n + 1):  # expect: AIP201
        p2x, p2y = poly[i % n]
        if min(p1y, p2y) < y <= max(p1y, p2y) and x <= max(p1x, p2x):  # expect: AIP201
            if p1y != p2y:
                xints = (y - p1y) * (p2x - p1x) / (p2y - p1y) + p1x
            if p1x == p2x or x <= xints:
                inside = not inside
        p1x, p1y = p2x, p2y
    return inside


in_district = [point_in_poly(x, y, poly) for x, y in points]  # expect: AIP201
share_inside = sum(in_district) / len(in_district)
