"""Data for the cells' setups: frames built from arrays, word lists, images, files, a local server.

Every generator is seeded, so a cell sees the same data on every run. The sizes are the cells'
(each cell's header says what size the original used). Nothing here is measured: setups call
these, then the cell runs.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent

# English function words, the usual size of a stop-word list (NLTK's English list has 179 entries).
STOP_WORDS = (  # noqa: SIM905  (a word list reads better as text)
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her "
    "hers herself it its itself they them their theirs themselves what which who whom this that these "
    "those am is are was were be been being have has had having do does did doing a an the and but if "
    "or because as until while of at by for with about against between into through during before "
    "after above below to from up down in out on off over under again further then once here there "
    "when where why how all any both each few more most other some such no nor not only own same so "
    "than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn "
    "hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn also could would might "
    "must shall upon yet ever even though although whether either neither per via onto toward towards "
    "within without among amongst whose hence"
).split()
CONTENT_WORDS = (  # noqa: SIM905
    "film movie story plot actor scene music great good bad boring funny love hate time people world "
    "character director end beginning script camera effects performance role life family friend house "
    "night day city police money war school car game book series episode season star cast audience "
    "moment idea point feeling picture screen comedy drama horror action romance thriller hero villain"
).split()


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def sales(n: int, seed: int = 0) -> Any:
    """Orders of a shop: one row per order line (a pandas course's sales data)."""
    import pandas as pd

    r = rng(seed)
    products = np.array(["USB-C Cable", "Headphones", "Monitor", "Laptop", "Phone", "Batteries", "TV"])
    base = np.array([11.95, 99.99, 149.99, 999.0, 600.0, 3.84, 400.0])
    pick = r.integers(0, len(products), n)
    return pd.DataFrame({
        "order_id": np.arange(176_558, 176_558 + n),
        "product": products[pick],
        "price": base[pick],
        "qty": r.integers(1, 5, n),
        "city": r.choice(np.array(["Boston", "Dallas", "Austin", "Seattle", "Atlanta", "Portland"]), n),
        "month": r.integers(1, 13, n),
    })


def titanic(n: int = 891, seed: int = 1) -> Any:
    """Passengers with the Kaggle Titanic columns (names in "Surname, Title. Given" form)."""
    import pandas as pd

    r = rng(seed)
    titles = np.array(["Mr", "Mrs", "Miss", "Master", "Dr", "Rev", "Col", "Mme", "Countess"])
    title = titles[r.choice(len(titles), n, p=[0.58, 0.14, 0.2, 0.045, 0.01, 0.01, 0.005, 0.005, 0.005])]
    surnames = np.array(["Braund", "Cumings", "Heikkinen", "Futrelle", "Allen", "Moran", "McCarthy", "Palsson"])
    given = np.array(["Owen Harris", "John Bradley", "Laina", "Jacques Heath", "William Henry", "James"])
    parts = zip(surnames[r.integers(0, 8, n)], title, given[r.integers(0, 6, n)], strict=True)
    names = [f"{s}, {t}. {g}" for s, t, g in parts]
    age = np.round(r.normal(29.7, 14.5, n).clip(0.4, 80), 1)
    age[r.random(n) < 0.2] = np.nan
    return pd.DataFrame({
        "PassengerId": np.arange(1, n + 1),
        "Survived": r.integers(0, 2, n),
        "Pclass": r.choice([1, 2, 3], n, p=[0.24, 0.21, 0.55]),
        "Name": names,
        "Sex": np.where(np.isin(title, ["Mrs", "Miss", "Mme", "Countess"]), "female", "male"),
        "Age": age,
        "SibSp": r.choice([0, 1, 2, 3, 4], n, p=[0.68, 0.23, 0.04, 0.03, 0.02]),
        "Parch": r.choice([0, 1, 2, 3], n, p=[0.76, 0.13, 0.09, 0.02]),
        "Fare": np.round(r.lognormal(2.7, 1.0, n), 4),
        "Embarked": r.choice(np.array(["S", "C", "Q"]), n, p=[0.72, 0.19, 0.09]),
    })


def census(n: int, seed: int = 2) -> Any:
    """Survey rows with one 0/1 flag per ethnicity column (the row-wise labelling question's data)."""
    import pandas as pd

    r = rng(seed)
    cols = ["eri_hispanic", "eri_afr_amer", "eri_asian", "eri_hawaiian", "eri_nat_amer", "eri_white"]
    shares = [0.18, 0.13, 0.06, 0.01, 0.02, 0.6]
    flags = {c: (r.random(n) < p).astype(np.int64) for c, p in zip(cols, shares, strict=True)}
    return pd.DataFrame({"id": np.arange(n), **flags, "income": r.lognormal(10.5, 0.6, n).round(2)})


def taxi(n: int, seed: int = 3) -> Any:
    """Trips with pickup and drop-off coordinates around Manhattan (a taxi-fare EDA's frame)."""
    import pandas as pd

    r = rng(seed)
    return pd.DataFrame({
        "pickup_latitude": 40.75 + r.normal(0, 0.03, n), "pickup_longitude": -73.98 + r.normal(0, 0.03, n),
        "dropoff_latitude": 40.75 + r.normal(0, 0.04, n), "dropoff_longitude": -73.98 + r.normal(0, 0.04, n),
        "passenger_count": r.integers(1, 7, n), "fare_amount": r.gamma(2.0, 6.0, n).round(2),
    })


def words(n: int, seed: int = 4) -> list[str]:
    """n tokens of English-like text: about half stop words, the rest a Zipf-like draw of content words."""
    r = rng(seed)
    vocab = STOP_WORDS + CONTENT_WORDS + [f"{w}s" for w in CONTENT_WORDS] + [f"word{i}" for i in range(3000)]
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 0.9
    picks = r.choice(len(vocab), n, p=weights / weights.sum())
    return [vocab[i] for i in picks]


def reviews(n: int, length: int = 30, seed: int = 5) -> list[str]:
    """n short reviews of ``length`` words each."""
    toks = words(n * length, seed)
    return [" ".join(toks[i * length:(i + 1) * length]) for i in range(n)]


def images(n: int, size: int = 28, seed: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """MNIST-shaped uint8 images and their labels."""
    r = rng(seed)
    return r.integers(0, 256, (n, size, size), dtype=np.uint8), r.integers(0, 10, n)


def names(per_language: int = 1100, seed: int = 7) -> dict[str, list[str]]:
    """Surnames by language of origin, built from syllables (the char-RNN tutorial's 18 files)."""
    r = rng(seed)
    languages = ["Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German", "Greek", "Irish",
                 "Italian", "Japanese", "Korean", "Polish", "Portuguese", "Russian", "Scottish", "Spanish",
                 "Vietnamese"]
    syllables = ["ab", "an", "ber", "chi", "do", "el", "fa", "gon", "ha", "is", "jo", "ka", "li", "mo", "nak",
                 "ov", "pe", "qu", "ro", "sa", "to", "ura", "vi", "wa", "xi", "ya", "zo", "ski", "sson", "ez"]
    out = {}
    for lang in languages:
        counts = r.integers(2, 5, per_language)
        out[lang] = ["".join(r.choice(syllables, k)).capitalize() for k in counts]
    return out


def temp_dir() -> Path:
    """A fresh folder below the working directory (the harness runs each kernel in a temporary one)."""
    return Path(tempfile.mkdtemp(prefix="cell-", dir=os.getcwd()))


def write_log(path: Path, n: int, seed: int = 8) -> Path:
    """A server log of n lines, about 3 % of them errors."""
    r = rng(seed)
    levels = np.array(["INFO", "DEBUG", "WARNING", "ERROR"])[r.choice(4, n, p=[0.7, 0.2, 0.07, 0.03])]
    with open(path, "w", encoding="utf-8") as fh:
        for i, level in enumerate(levels):
            fh.write(f"2024-03-{1 + i % 28:02d} 12:{i % 60:02d}:{i % 59:02d} {level} worker-{i % 8} "
                     f"request {i} took {(i * 37) % 997} ms\n")
    return path


def write_csv(path: Path, n: int, seed: int = 9) -> Path:
    """A CSV of n readings: id, sensor, value, flag, note."""
    r = rng(seed)
    values = r.normal(20, 5, n).round(3)
    sensors = r.integers(0, 50, n)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("id,sensor,value,flag,note\n")
        for i in range(n):
            fh.write(f"{i},{sensors[i]},{values[i]},{i % 3 == 0},ok\n")
    return path


def start_server(latency_ms: float = 10) -> tuple[subprocess.Popen[str], str]:
    """The local service (``cell_server.py``) in its own process, and its base URL."""
    proc = subprocess.Popen([sys.executable, str(HERE / "cell_server.py"), str(latency_ms)],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    atexit.register(proc.kill)
    return proc, f"http://127.0.0.1:{port}"
