"""IPython syntax -> Python, line for line, and back: the one translation every part uses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aiperf_magic.cell.source import runnable, split_magic_cell, to_python

CASES = {
    "format string continued": 'print("epoch %d, loss %.4f"\n      % (epoch + 1, l))\n',
    "magic-like lines in a string": 'x = """\n%not magic\n!nor this\n"""\n%time y = 1\n',
    "shell lines in a function": "def f():\n    !ls\n    files = !ls -la\n    return files\n",
    "help and line magics": "%matplotlib inline\nimport numpy as np\nnp.sum?\n",
    "comment with a question mark": "a = (1 +\n     2)  # why?\nb = a % 2\n",
    "magic continued with a backslash": "%load_ext autoreload \\\n   foo\nx = 1\n",
    "indented magic": "if x:\n    %time y = 1\n    !echo a \\\n        b\n",
    "leading space, as IPython accepts": " Image(filename='a.png')\n z = 1\n",
    "cell magic header": "%%time\nfor i in range(3):\n    !echo $i\n",
}


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_python_text_compiles_keeps_lines_and_restores(source: str) -> None:
    py = to_python(source)
    compile(py.text, "<cell>", "exec", flags=0x2000)  # top-level await allowed, as in IPython
    assert py.text.count("\n") + py.offset == source.count("\n")
    assert py.restore(py.text) == source


def test_positions_map_back_to_the_users_columns() -> None:
    py = to_python(" x = [i for i in data]\n")
    assert py.indent == " " and py.position(1, 4) == (1, 6)  # the column the user sees
    timed = to_python("%time total = sum(v * 2 for v in vals)\n")
    assert timed.position(1, 14) == (1, 15)  # %time keeps every column
    shell = to_python("!ls\nx = 1\n")
    assert shell.position(1, 0) == (1, 1) and shell.position(2, 4) == (2, 5)


def test_a_rewrite_that_drops_or_changes_an_ipython_line_is_refused() -> None:
    py = to_python("!echo start\n%time y = f(x)\n")
    assert py.restore(py.text.replace("__aiperf_ipython_line_0__\n", "")) is None
    assert py.restore(py.text.replace("f(x)", "g(x)")) is None


def test_other_languages_are_not_python() -> None:
    assert not to_python("%%bash\necho hi\n").is_python
    assert to_python("%%timeit\nx = 1\n").is_python


def test_runnable_is_ipythons_own_translation() -> None:
    assert "get_ipython().system('ls')" in runnable("!ls\n")
    assert runnable("x = 1\n") == "x = 1\n"


def test_split_magic_cell() -> None:
    assert split_magic_cell("%%aiperf --text\nx = 1") == ("--text", "x = 1")
    assert split_magic_cell("%%aiperfx\n") is None and split_magic_cell("%%aiperf?\n") is None


LINES = st.sampled_from(
    ["x = 1", "!ls", "files = !ls", "%time y = 2", "%matplotlib inline", "np.sum?", "s = '%d' % 3",
     "for i in range(3):", "    !echo $i", "    z = (i +", "         1)", '"""', "!inside", "# !comment", "a \\"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, max_size=12))
def test_restore_is_the_identity_on_any_mix(lines: list[str]) -> None:
    source = "\n".join(lines) + "\n"
    py = to_python(source)
    assert py.text.count("\n") == source.count("\n")
    assert py.restore(py.text) == source


def test_statement_texts_join_to_the_module() -> None:
    from pathlib import Path

    from aiperf_magic.cell.parsed import ParsedCell, parse

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    for path in sorted(fixtures.rglob("*.py")):
        for variant in (path.read_text(), path.read_text().rstrip("\n")):  # with and without a last newline
            cell = parse(variant)
            if not isinstance(cell, ParsedCell):
                continue
            texts = cell.statement_texts
            assert texts.header + "".join(texts.body) + texts.footer == cell.module.code, path.name
            assert len(texts.body) == len(cell.module.body)
