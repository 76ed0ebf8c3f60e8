"""AIP105 file-read-per-call: found at run time (``rules/from_run/rereads.py``); documented here."""

from __future__ import annotations

from ..registry import document

document(
    "AIP105",
    "file-read-per-call",
    "The same file is opened and read again on every call: read it once, outside the function or loop",
    """
    ## What it does
    Reported by `%%aiperf` when the run shows a line that opens or reads a file (`open`, a pandas
    reader, `np.load`, `Path.read_text`) taking a real share of the cell, inside a function called once
    per row or item (handed to `apply`/`map`, called in a loop) or inside a loop, while the file's
    path does not depend on the call's arguments or the loop's variables: the same file, read again
    each time. It cannot be found from the code alone (a path may name a different file each time
    it is read), so the static linter never reports it.

    ## Why is this bad?
    Each read opens the file, decodes it and rebuilds whatever the code makes of it (a set of
    stop words, a lookup table), then throws it away. A text-cleaning helper that read a 179-word
    stop-word file on each of 20,000 calls took 0.65 s; with the set read once before, 0.088 s:
    7.4x faster, with the same strings.

    ## Example
    ```python
    def clean(text):
        with open("stopwords.txt") as f:
            stop = set(f.read().split())
        return " ".join(w for w in text.split() if w not in stop)

    df["clean"] = df["review"].apply(clean)
    ```

    ## Use instead
    ```python
    with open("stopwords.txt") as f:
        STOP = set(f.read().split())

    def clean(text):
        return " ".join(w for w in text.split() if w not in STOP)
    ```

    ## Fix safety
    No automatic fix. Reading the file once means later calls no longer see changes made to the
    file while they run; where the file does not change, the results are the same.

    ## References
    - Python: the `open` built-in and the `io` module's buffered readers.
    """,
)
