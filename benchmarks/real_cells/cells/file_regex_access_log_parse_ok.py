# ruff: noqa
"""A web server's access log streamed line by line and parsed with one compiled regular expression, then counted.

source: log-analysis tutorials on the NASA Kennedy Space Center HTTP logs (the Common Log Format:
        host, timestamp, request, status, bytes; a compiled pattern matched against each line of the
        file, the matches counted by status and host), as in the Spark and pandas courses' Python
        warm-ups
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: the file is streamed, the pattern compiled once; matching each line is the work any reader of the log must do
size: 300,000 log lines
scaled: no
kernel: data
"""
# %% setup
import re
from collections import Counter

import numpy as np

from cell_data import temp_dir

rng = np.random.default_rng(223)
path = temp_dir() / "access_log_Jul95"
hosts = [f"host{i}.example.net" for i in range(4_000)]
pages = ["/images/NASA-logosmall.gif", "/shuttle/countdown/", "/history/apollo/", "/images/KSC-logosmall.gif"]
with open(path, "w", encoding="utf-8") as out:
    for i, (h, p, s, b) in enumerate(zip(rng.integers(0, 4_000, 300_000), rng.integers(0, 4, 300_000),
                                         rng.choice([200, 304, 404, 500], 300_000, p=[0.88, 0.08, 0.035, 0.005]),
                                         rng.integers(0, 60_000, 300_000))):
        out.write(f'{hosts[h]} - - [01/Jul/1995:{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d} -0400] '
                  f'"GET {pages[p]} HTTP/1.0" {s} {b}\n')
LOG_PATTERN = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) \S+" (\d{3}) (\d+|-)$')
# %% cell
status_counts, host_counts = Counter(), Counter()
with open(path, encoding="utf-8") as log:
    for line in log:
        match = LOG_PATTERN.match(line.rstrip("\n"))
        if match:
            status_counts[match.group(5)] += 1
            host_counts[match.group(1)] += 1
top_hosts = host_counts.most_common(10)
