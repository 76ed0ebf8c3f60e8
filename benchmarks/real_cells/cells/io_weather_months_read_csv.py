# ruff: noqa
"""A year of weather data downloaded month by month with pd.read_csv(url) in a comprehension.

source: jvns/pandas-cookbook, chapter 5 ("Combining dataframes and scraping Canadian weather
        data": download_weather_month(year, month) reads one month's CSV from a URL; the 12 months
        are fetched in a list comprehension and concatenated), against a local server answering
        in 50 ms
family: blocking-io
kind: slow
verdict: AIP903
rewrite: yes: the 12 downloads in a thread pool
size: 12 requests of 50 ms latency, 672 rows each
scaled: no: the real server answers in about a second per month
kernel: data
unsure: twelve iterations: "a few" to a static rule, but the waits are most of the cell
"""
# %% setup
import pandas as pd
from cell_data import start_server

server, base = start_server(latency_ms=50)
url_template = base + "/weather/{year}/{month}"


def download_weather_month(year, month):
    url = url_template.format(year=year, month=month)
    weather_data = pd.read_csv(url, index_col="Date/Time", parse_dates=True)
    return weather_data.dropna(axis=1, how="any")
# %% cell
data_by_month = [download_weather_month(2012, i) for i in range(1, 13)]  # expect: AIP402
weather_2012 = pd.concat(data_by_month)
# %% teardown
server.kill()
