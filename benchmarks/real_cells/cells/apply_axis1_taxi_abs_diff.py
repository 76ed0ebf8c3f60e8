# ruff: noqa
"""Travel vectors of taxi trips computed with a row-wise apply of a lambda on two coordinate columns.

source: Kaggle "New York City Taxi Fare Prediction" starter notebooks (add_travel_vector_features:
        abs_diff_longitude and abs_diff_latitude), written with df.apply(lambda r: ..., axis=1) as
        several public kernels do, on a sample of the training file
family: row-apply
kind: slow
verdict: AIP907
rewrite: yes: (train_df.dropoff_longitude - train_df.pickup_longitude).abs()
size: 50,000 trips
scaled: yes: the notebooks sample 500,000 to 2,000,000 of the 55 million trips
kernel: data
"""
# %% setup
from cell_data import taxi

train_df = taxi(50_000, seed=55)
# %% cell
train_df["abs_diff_longitude"] = train_df.apply(  # expect: AIP302
    lambda r: abs(r["dropoff_longitude"] - r["pickup_longitude"]), axis=1)  # expect: AIP302
