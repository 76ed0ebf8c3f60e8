# ruff: noqa
"""A checksum of every file of a folder, taken by running sha256sum once per file, one after another.

source: dataset-preparation scripts and notebooks that shell out per file (checksums, ffmpeg or
        ImageMagick conversions: for path in paths: subprocess.run(["sha256sum", path],
        capture_output=True, text=True)), each call waiting for its child process
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: hashlib.sha256(path.read_bytes()).hexdigest() in the process, or the same calls from a thread pool (the same digests)
size: 200 files of 4 KB
scaled: no
kernel: data
"""
# %% setup
import subprocess

from cell_data import temp_dir

folder = temp_dir()
paths = []
for i in range(200):
    path = folder / f"shard_{i:04d}.bin"
    path.write_bytes(bytes((i * 7 + j) % 256 for j in range(4096)))
    paths.append(path)
# %% cell
checksums = {}
for path in paths:  # expect: AIP402
    out = subprocess.run(["sha256sum", str(path)], capture_output=True, text=True, check=True)  # expect: AIP402
    checksums[path.name] = out.stdout.split()[0]
