# ruff: noqa
"""Daily sensor files read out of one zip archive with `with zipfile.ZipFile(archive) as zf` inside the loop: every member reopens the archive and parses its whole directory again.

source: notebooks over Kaggle-style downloads shipped as one zip of many small CSV files, which
        read the members without extracting them (for name in names: with
        zipfile.ZipFile(path) as zf: text = zf.read(name).decode()), then parse each file's
        readings and summarise them per sensor
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: open the archive once around the loop (with zipfile.ZipFile(archive_path) as zf: for name in member_names: ...): the same texts, the directory parsed once
size: an archive of 400 members of 48 readings each
scaled: no
kernel: data
"""
# %% setup
import zipfile

import numpy as np
from cell_data import temp_dir

rng = np.random.default_rng(520)
archive_path = temp_dir() / "sensors.zip"
member_names = []
with zipfile.ZipFile(archive_path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
    for s in range(400):
        name = f"sensor_{s // 20:02d}/day_{s % 20:02d}.csv"
        values = rng.normal(20 + s % 7, 2.0, 48).round(2)
        zf.writestr(name, "hour,value\n" + "\n".join(f"{h / 2:.1f},{v}" for h, v in enumerate(values)) + "\n")
        member_names.append(name)
# %% cell
daily_means = {}
for name in member_names:  # expect: AIP105
    with zipfile.ZipFile(archive_path) as zf:  # expect: AIP105
        text = zf.read(name).decode("utf-8")  # expect: AIP105
    values = [float(line.split(",")[1]) for line in text.splitlines()[1:]]
    daily_means[name] = sum(values) / len(values)
sensor_means = {s: np.mean([m for k, m in daily_means.items() if k.startswith(s)]) for s in {k.split("/")[0] for k in daily_means}}
