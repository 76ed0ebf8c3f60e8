"""The cluster probe: what a Dask or Ray cluster did while a ``%%aiperf`` cell ran.

``detect`` finds a live cluster only in engines the user's process has already imported;
``summary`` folds a task stream of any length into bounded memory; ``dask_probe`` and ``ray_probe``
read the engines' public APIs; ``stage`` starts and stops a probe with the cell.
"""
