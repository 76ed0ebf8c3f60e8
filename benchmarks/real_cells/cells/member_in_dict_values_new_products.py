# ruff: noqa
"""A supplier's product feed matched against the catalogue with `if name in catalog.values()`: every name scans the dict's values one by one.

source: data-cleaning and ETL notebooks that keep a catalogue as {sku: name} and check incoming
        records by value (for name in feed: if name in catalog.values(): matched += 1 else:
        new_products.append(name)), a reverse lookup a dict does not index
family: membership
kind: slow
verdict: AIP907
rewrite: yes: known = set(catalog.values()) once before the loop, then `if name in known` (the same matches and new products)
size: a catalogue of 10,000 products, a feed of 5,000 names (about 40 million comparisons)
scaled: no
kernel: data
unsure: the scanned container is a dict's values view, not a list; AIP202 names membership scans in a loop
"""
# %% setup
import numpy as np

rng = np.random.default_rng(516)
brands = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne"]
kinds = ["usb cable", "desk lamp", "water bottle", "notebook", "backpack", "phone case", "mouse pad", "kettle"]
catalog = {f"SKU{i:06d}": f"{brands[i % 10]} {kinds[(i // 10) % 8]} model {i:05d}" for i in range(10_000)}
picks = rng.integers(0, 14_000, 5_000)
# names rebuilt from parts, as a parsed feed would give them: equal strings, not the same objects
feed = [f"{brands[i % 10]} {kinds[(i // 10) % 8]} model {i:05d}" for i in picks]
# %% cell
matched, new_products = 0, []
for name in feed:  # expect: AIP202
    if name in catalog.values():  # expect: AIP202
        matched += 1
    else:
        new_products.append(name)
match_rate = matched / len(feed)
