# ruff: noqa
"""Stars of a list of repositories fetched with one request each, in a list comprehension.

source: GitHub-API notebooks and course exercises (for each repository of a list:
        requests.get(f"https://api.github.com/repos/{name}").json()["stargazers_count"], written
        as a comprehension, then a bar chart)
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: ThreadPoolExecutor.map over the names, in the same order
size: 50 repositories, 10 ms latency per request
scaled: no
kernel: data
"""
# %% setup
import requests
from cell_data import start_server

server, base = start_server(latency_ms=10)
repos = [f"org{i % 7}/project-{i}" for i in range(50)]
session = requests.Session()
# %% cell
stars = [session.get(f"{base}/repos/{name}", timeout=10).json()["value"] for name in repos]  # expect: AIP402
ranked = sorted(zip(stars, repos), reverse=True)[:10]
# %% teardown
server.kill()
