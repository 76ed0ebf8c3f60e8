"""fix_file on .py files and .ipynb notebooks: only what a fix changes is rewritten, every other byte
(encoding, BOM, line endings, the notebook's JSON layout) stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aiperf_magic.lint.fix_files import fix_file

SRC = "with open(path) as fh:\n    for line in fh.readlines():\n        n += 1\n"
FIXED = "    for line in fh:"


def test_py_file_diff_and_write(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(SRC)
    r = fix_file(path, select=["ALL"])
    assert r.changed and "+" + FIXED in r.diff and path.read_text() == SRC
    r = fix_file(path, write=True, select=["ALL"])
    assert FIXED in path.read_text()
    assert not fix_file(path, select=["ALL"]).changed


def notebook(cells: list[dict]) -> str:
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def code(src: str, cid: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cid,
        "metadata": {},
        "outputs": [],
        "source": src.splitlines(keepends=True),
    }


def test_notebook_only_changed_cells_are_rewritten(tmp_path: Path) -> None:
    cells = [
        code("import numpy as np  # é\n", "c1"),
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["x in [1]"]},
        code("%%aiperf\n" + SRC, "c2"),
        code("%%bash\nfor line in $(cat f); do :; done", "c3"),
    ]
    path = tmp_path / "n.ipynb"
    raw = notebook(cells)
    path.write_text(raw, encoding="utf-8")
    r = fix_file(path, write=True, select=["ALL"])
    assert r.changed and r.cells == [2]
    assert f"{path}:cell 2 (before)" in r.diff and "+" + FIXED in r.diff
    new = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(raw.splitlines(), new.splitlines(), strict=False) if a != b]
    assert len(raw.splitlines()) == len(new.splitlines()) and len(changed) == 1
    assert FIXED.strip() in changed[0][1]
    assert json.loads(new)["cells"][2]["source"][0] == "%%aiperf\n"


def test_invalid_notebook_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"bad\.ipynb: invalid notebook JSON: .* at line 1, column 2$"):
        fix_file(path, select=["ALL"])
    assert path.read_text() == "{not json"


# -- .py files: encoding, BOM and line endings -----------------------------------------------------

BYTES = SRC.encode()
FIXED_BYTES = SRC.replace("fh.readlines()", "fh").encode()


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (BYTES.replace(b"\n", b"\r\n"), FIXED_BYTES.replace(b"\n", b"\r\n")),
        (b"\xef\xbb\xbf" + BYTES, b"\xef\xbb\xbf" + FIXED_BYTES),
        (b"\xef\xbb\xbfx = 1\r\n" + BYTES, b"\xef\xbb\xbfx = 1\r\n" + FIXED_BYTES),  # mixed endings
        (
            b"# -*- coding: latin-1 -*-\nname = '\xe9'\n" + BYTES,
            b"# -*- coding: latin-1 -*-\nname = '\xe9'\n" + FIXED_BYTES,
        ),
        (b"# vim: set fileencoding=cp1252 :\r\ns = '\x80'\r\n" + BYTES.replace(b"\n", b"\r\n"),
         b"# vim: set fileencoding=cp1252 :\r\ns = '\x80'\r\n" + FIXED_BYTES.replace(b"\n", b"\r\n")),
    ],
    ids=["crlf", "bom", "bom-mixed-endings", "latin-1", "cp1252-crlf"],
)
def test_py_file_keeps_its_bytes(tmp_path: Path, before: bytes, after: bytes) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(before)
    r = fix_file(path, select=["ALL"])
    assert r.changed and "+" + FIXED in r.diff and path.read_bytes() == before
    fix_file(path, write=True, select=["ALL"])
    assert path.read_bytes() == after
    assert not fix_file(path, select=["ALL"]).changed


def test_a_fix_the_encoding_cannot_hold_is_not_written() -> None:
    from aiperf_magic.lint.text import EncodingError, SourceBytes

    source = SourceBytes.decode(b"# coding: latin-1\nx = 1\n")
    assert source.encoding == "iso-8859-1" and source.encode("# coding: latin-1\nx = '\xe9'\n").endswith(b"'\xe9'\n")
    with pytest.raises(EncodingError, match="cannot hold"):
        source.encode("# coding: latin-1\nx = '→'\n")


def test_read_only_file_is_refused_even_for_root(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(SRC)
    path.chmod(0o444)
    with pytest.raises(ValueError, match=r"m\.py: read-only file: not rewritten"):
        fix_file(path, write=True, select=["ALL"])
    assert path.read_text() == SRC


def test_a_symbolic_link_is_never_written_through(tmp_path: Path) -> None:
    (tmp_path / "victim.py").write_text(SRC)
    link = tmp_path / "link.py"
    link.symlink_to("victim.py")
    with pytest.raises(ValueError, match=r"link\.py: a symbolic link to victim\.py: not written through"):
        fix_file(link, write=True, select=["ALL"])
    assert (tmp_path / "victim.py").read_text() == SRC and link.is_symlink()


# -- notebooks: the file's own JSON layout ---------------------------------------------------------


def _nb(source_as_list: bool = True, extra: str = "é") -> dict:
    def src(text: str) -> object:
        return text.splitlines(keepends=True) if source_as_list else text

    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": f"Python 3 {extra}"}, "zeta": [], "alpha": {}},
        "cells": [
            {"cell_type": "markdown", "id": "m", "metadata": {}, "source": src(f"# {extra} ∑\nfh.readlines()")},
            {"id": "c1", "cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": src(f"%%aiperf\n# {extra}\n" + SRC)},
            {"cell_type": "code", "execution_count": None, "id": "c2", "metadata": {}, "source": src("x = 1\n"),
             "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"{extra}\n", "done\n"]}]},
            {"cell_type": "code", "execution_count": None, "id": "c3", "metadata": {}, "outputs": [], "source": []},
        ],
    }


def _fixed(nb: dict) -> dict:
    new = json.loads(json.dumps(nb))
    cell = new["cells"][1]
    text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    text = text.replace("fh.readlines()", "fh")
    cell["source"] = text.splitlines(keepends=True) if isinstance(cell["source"], list) else text
    return new


LAYOUTS = {
    "jupyter": {"indent": 1, "sort_keys": True, "ensure_ascii": False},
    "indent-2-ascii": {"indent": 2, "sort_keys": False, "ensure_ascii": True},
    "indent-4": {"indent": 4, "sort_keys": True, "ensure_ascii": False},
    "tabs": {"indent": "\t", "sort_keys": False, "ensure_ascii": False},
    "one-line": {"indent": None, "sort_keys": False, "ensure_ascii": True},
    "compact": {"indent": None, "separators": (",", ":"), "sort_keys": True, "ensure_ascii": False},
    "indent-3-unsorted": {"indent": 3, "sort_keys": False, "ensure_ascii": False},
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("as_list", [True, False], ids=["list", "string"])
@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
@pytest.mark.parametrize("bom", [False, True], ids=["", "bom"])
def test_notebook_layout_is_kept(tmp_path: Path, layout: str, as_list: bool, crlf: bool, bom: bool) -> None:
    def dump(nb: dict) -> bytes:
        text = json.dumps(nb, **LAYOUTS[layout]) + "\n"
        text = text.replace("\n", "\r\n") if crlf else text
        return (b"\xef\xbb\xbf" if bom else b"") + text.encode()

    nb = _nb(as_list)
    path = tmp_path / "n.ipynb"
    path.write_bytes(dump(nb))
    r = fix_file(path, write=True, select=["ALL"])
    assert r.changed and r.cells == [1]
    assert path.read_bytes() == dump(_fixed(nb))  # as if the tool that wrote it had written the fix


def test_notebook_hand_written_layout_changes_only_the_fixed_source(tmp_path: Path) -> None:
    raw = (
        '{"nbformat": 4, "nbformat_minor": 5,\n  "cells" : [\n'
        '    { "source" :  [ "x = 1\\n" ] , "cell_type":"code", "metadata":{}, "outputs":[], "execution_count":null},\n'
        '    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,\n'
        '     "source": "with open(path) as fh:\\n    for line in fh.readlines():\\n        n += 1\\n"   }\n'
        "  ],\n"
        '  "metadata": {}\n}'
    )
    path = tmp_path / "n.ipynb"
    path.write_text(raw)
    fix_file(path, write=True, select=["ALL"])
    new = path.read_text()
    assert new == raw.replace("fh.readlines()", "fh")


def test_crlf_inside_a_cell_is_kept_on_untouched_lines(tmp_path: Path) -> None:
    nb = _nb(source_as_list=False)
    nb["cells"][1]["source"] = "%%aiperf\r\n" + SRC.replace("\n", "\r\n")
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb, indent=1))
    fix_file(path, write=True, select=["ALL"])
    source = json.loads(path.read_text())["cells"][1]["source"]
    assert source == "%%aiperf\r\n" + SRC.replace("fh.readlines()", "fh").replace("\n", "\r\n")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("[]", "the file is not a JSON object"),
        ('{"cells": 3}', "no 'cells' list"),
        ('{"cells": [1]}', "cell 0 is not a JSON object"),
        ('{"cells": [{"cell_type": "code", "source": 7}]}', "cell 0's source is not text or a list of text"),
        ('{"cells": [{"cell_type": "code", "source": ["a", 7]}]}', "cell 0's source is not text or a list of text"),
        ("\xff", "not UTF-8 text"),
    ],
)
def test_malformed_notebooks_are_one_line_errors(tmp_path: Path, raw: str, reason: str) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_bytes(raw.encode("latin-1"))
    with pytest.raises(ValueError) as info:
        fix_file(path, write=True, select=["ALL"])
    message = str(info.value)
    assert message.startswith(f"{path}: ") and reason in message and "\n" not in message
    assert path.read_bytes() == raw.encode("latin-1")


def test_ctrl_c_while_writing_never_leaves_a_half_written_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    path = tmp_path / "m.py"
    path.write_text(SRC)
    real_fdopen = os.fdopen

    class Interrupted:
        def __init__(self, fh: object) -> None:
            self.fh = fh

        def __enter__(self) -> Interrupted:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()  # type: ignore[attr-defined]

        def write(self, data: bytes) -> int:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C between the truncation and the write
            return self.fh.write(data[:10]) + self.fh.write(data[10:])  # type: ignore[attr-defined, no-any-return]

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Interrupted(real_fdopen(fd, mode)))
    with pytest.raises(KeyboardInterrupt):
        fix_file(path, write=True, select=["ALL"])
    assert path.read_text() == SRC.replace("fh.readlines()", "fh")  # whole: the Ctrl-C came after
