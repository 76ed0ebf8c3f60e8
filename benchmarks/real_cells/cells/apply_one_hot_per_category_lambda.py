# ruff: noqa
"""One-hot columns made by hand: for every neighbourhood, a new 0/1 column from Series.apply(lambda x: 1 if x == hood else 0).

source: Airbnb listings and housing-price notebooks that encode a categorical column by hand
        before pd.get_dummies (for hood in df["neighbourhood"].unique(): df["is_" + hood] =
        df["neighbourhood"].apply(lambda x: 1 if x == hood else 0)), then feed the columns to a
        regression
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: each column as (listings["neighbourhood"] == hood).astype(int), or all at once with pd.get_dummies(listings["neighbourhood"], prefix="is", prefix_sep="_", dtype=int) joined to the frame (the same 0/1 columns)
size: 60,000 listings, 40 neighbourhoods (2,400,000 lambda calls)
scaled: no
kernel: data
"""
# %% setup
import numpy as np
import pandas as pd

rng = np.random.default_rng(408)
n = 60_000
hoods = np.array([f"hood_{name}" for name in (
    "harlem bushwick williamsburg astoria midtown chelsea soho tribeca flatbush greenpoint "
    "ridgewood inwood fordham kips_bay murray_hill gramercy noho nolita dumbo red_hook "
    "park_slope cobble_hill carroll_gardens sunnyside jackson_heights flushing corona "
    "bedstuy crown_heights clinton_hill fort_greene east_village west_village lower_east_side "
    "upper_west_side upper_east_side hells_kitchen financial_district battery_park two_bridges").split()])
listings = pd.DataFrame({
    "id": np.arange(n),
    "neighbourhood": hoods[rng.integers(0, len(hoods), n)],
    "room_type": rng.choice(np.array(["Entire home/apt", "Private room", "Shared room"]), n),
    "minimum_nights": rng.integers(1, 30, n),
    "price": rng.lognormal(4.8, 0.5, n).round(0),
})
# %% cell
for hood in listings["neighbourhood"].unique():  # expect: AIP302
    listings["is_" + hood] = listings["neighbourhood"].apply(lambda x: 1 if x == hood else 0)  # expect: AIP302 ok: AIP303
dummy_cols = [c for c in listings.columns if c.startswith("is_")]
coverage = listings[dummy_cols].sum().sort_values(ascending=False)
