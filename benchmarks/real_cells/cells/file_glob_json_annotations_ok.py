# ruff: noqa
"""Bounding boxes gathered from one JSON annotation file per image: a loop opens and parses 2,000 small files, then one frame.

source: object-detection notebooks that read LabelMe-style annotations (for path in
        sorted(Path("annotations").glob("*.json")): ann = json.load(open(path)); for shape in
        ann["shapes"]: rows.append({...})), then pd.DataFrame(rows) and box statistics per label
family: file-read
kind: healthy
verdict: AIP907|AIP903|none
rewrite: no: the data is one file per image, so each must be opened and parsed once; the files are local and small, and the rows are collected in a list and made a frame once
size: 2,000 annotation files of 1 to 6 boxes
scaled: no
kernel: data
"""
# %% setup
import json

import numpy as np
import pandas as pd
from cell_data import temp_dir

rng = np.random.default_rng(423)
ann_dir = temp_dir()
labels = ["car", "person", "bicycle", "dog", "traffic_light", "bus"]
for i in range(2_000):
    shapes = []
    for _ in range(int(rng.integers(1, 7))):
        x1, y1 = rng.uniform(0, 500, 2).round(1)
        w, h = rng.uniform(10, 140, 2).round(1)
        shapes.append({"label": labels[int(rng.integers(0, 6))], "points": [[x1, y1], [x1 + w, y1 + h]],
                       "shape_type": "rectangle", "flags": {}})
    ann = {"version": "5.2.1", "imagePath": f"img_{i:05d}.jpg", "imageHeight": 640, "imageWidth": 640,
           "shapes": shapes}
    (ann_dir / f"img_{i:05d}.json").write_text(json.dumps(ann), encoding="utf-8")
# %% cell
rows = []
for path in sorted(ann_dir.glob("*.json")):
    with open(path, encoding="utf-8") as fh:
        ann = json.load(fh)
    for shape in ann["shapes"]:
        (x1, y1), (x2, y2) = shape["points"]
        rows.append({"image": ann["imagePath"], "label": shape["label"], "w": x2 - x1, "h": y2 - y1})
boxes = pd.DataFrame(rows)
per_label = boxes.groupby("label")[["w", "h"]].median()
