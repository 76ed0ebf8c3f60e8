"""Random programs assembled from realistic snippets never crash the analyzer."""

from __future__ import annotations

import textwrap

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from aiperf_magic.rules import Context, analyze

SNIPPETS = [
    "import torch",
    "import torch as T",
    "from torch.utils.data import DataLoader as DL",
    "import pandas as pd",
    "import numpy as np",
    "from concurrent.futures import ThreadPoolExecutor",
    "loader = DL(ds, batch_size=8)",
    "df = pd.read_csv('a.csv')",
    "model = T.nn.Linear(4, 4).cuda()",
    "x = T.randn(4, 4).cuda()",
    "loss.backward()",
    "opt.step()",
    "total += loss.item()",
    "out = np.append(out, v)",
    "df.loc[len(df)] = row",
    "y = model(x)",
    "if i % 10 == 0:\n    print(loss)",
    "with T.no_grad():\n    y = model(x)",
    "xs = [v * v for v in range(n)]",
    "if w in vocab:\n    pass",
    "for _, r in df.iterrows():\n    s += r['a']",
    "df['b'] = df.apply(lambda r: r['a'] * 2, axis=1)",
    "class D(T.utils.data.Dataset):\n    def __getitem__(self, i):\n        return self.rows[i]",
    "!ls",
    "%time f(x)",
    "await g()",
    "lambda: 0",
    "del x",
    "x, *y = z",
    "x: int = 3",
    "try:\n    pass\nexcept Exception:\n    raise",
    "global q",
    "async def h():\n    async for a in b:\n        pass",
    "match p:\n    case [1, *rest]:\n        pass",
    "yield 1",
    "return",
    "x = (",
    "def f(:",
    "'unterminated",
]
HEADERS = ["", "for i in range(n):", "while cond:", "def f(a, *b, **c):", "with ctx() as c:", "if flag:", "class K:"]


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        snippet = draw(st.sampled_from(SNIPPETS))
        header = draw(st.sampled_from(HEADERS))
        lines.append(f"{header}\n{textwrap.indent(snippet, '    ')}" if header else snippet)
    if draw(st.booleans()):
        lines.append(draw(st.text(max_size=30)))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "  # noqa", "  # noqa: AIP1"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_analyzer_never_crashes(source: str) -> None:
    findings = analyze(source)
    lines = source.count("\n") + 1
    for f in findings:
        assert f.code.startswith("AIP") and f.message
        # fixable is exact: true only when a rewrite is attached
        assert f.fixable == bool(f.fix is not None and f.fix.source), (f.code, f.fix)
        assert f.line is not None and 1 <= f.line <= lines + 1
        assert f.end_line is not None and f.end_line >= f.line


@settings(max_examples=40, deadline=None)
@given(st.lists(programs(), max_size=5))
@example(cells=["import torch\n" * 8 + "\U00031350"])  # a character libcst reads but refuses as a name
def test_notebook_contexts_never_crash(cells: list[str]) -> None:
    ctx = Context()
    for cell in cells:
        analyze(cell, context=ctx, namespace={"T": object(), "df": [1, 2]})
