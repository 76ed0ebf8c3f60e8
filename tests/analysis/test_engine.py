"""analyze(): name resolution, scopes, suppression, notebooks' earlier cells, live namespaces, bad input."""

from __future__ import annotations

import textwrap
from typing import Any

from aiperf_magic.report import Finding
from aiperf_magic.rules import Context
from aiperf_magic.rules import analyze as analyze_default


def analyze(source: str, **kw: Any) -> list[Finding]:
    """Every rule, preview ones too: these tests are about the engine, not about which rules
    earned a default place (tests/analysis/test_preview.py is)."""
    kw.setdefault("select", ["ALL"])
    return analyze_default(source, **kw)


def codes(source: str, **kw: object) -> list[str]:
    return [f.code for f in analyze(textwrap.dedent(source), **kw)]


def test_finding_fields() -> None:
    (f,) = analyze("from torch.utils.data import DataLoader\ndl = DataLoader(ds)\n")
    assert isinstance(f, Finding)
    assert (f.code, f.name, f.line, f.col, f.end_line, f.end_col) == (
        "AIP101",
        "dataloader-without-workers",
        2,
        6,
        2,
        20,
    )
    assert f.fixable is True
    assert f.fix is not None and "num_workers=" in f.fix.source and f.fix.diff.startswith("---")
    (bare,) = analyze("from torch.utils.data import DataLoader\ndl = DataLoader(ds)\n", fixes=False)
    assert bare.fix is None


def test_import_styles_resolve() -> None:
    for header, call in [
        ("import torch as T", "T.utils.data.DataLoader"),
        ("from torch.utils import data as tud", "tud.DataLoader"),
        ("import torch.utils.data", "torch.utils.data.DataLoader"),
        ("from torch.utils.data import DataLoader as DL", "DL"),
    ]:
        assert codes(f"{header}\nx = {call}(ds)\n") == ["AIP101"], header


def test_unrelated_names_stay_silent() -> None:
    assert codes("from mylib import DataLoader\nx = DataLoader(ds)\n") == []
    assert codes("x = DataLoader(ds)\n") == []  # never imported: unknown


def test_scopes_functions_methods_comprehensions() -> None:
    source = """
        import numpy as np
        class Builder:
            def run(self, values):
                out = np.zeros(0)
                for v in values:
                    out = np.append(out, v)
                return out
        def squares():
            return [i * i for i in range(100_000)]
    """
    assert codes(source) == ["AIP203", "AIP201"]


def test_noqa_bare_code_and_prefix() -> None:
    base = "from torch.utils.data import DataLoader\n"
    assert codes(base + "a = DataLoader(ds)  # noqa\n") == []
    assert codes(base + "a = DataLoader(ds)  # noqa: AIP101\n") == []
    assert codes(base + "a = DataLoader(ds)  # noqa: AIP1\n") == []
    assert codes(base + "a = DataLoader(ds)  # NOQA:E501,AIP101\n") == []
    assert codes(base + "a = DataLoader(ds)  # noqa: AIP301\n") == ["AIP101"]


def test_select_and_ignore_prefixes() -> None:
    source = "from torch.utils.data import DataLoader\na = DataLoader(ds)\nxs = [x * 2 for x in range(5000)]\n"
    assert codes(source) == ["AIP101", "AIP201"]
    assert codes(source, select=["AIP2"], preview=True) == ["AIP201"]
    assert codes(source, select="AIP1, AIP2", ignore="AIP201", preview=True) == ["AIP101"]
    assert codes(source, ignore=["AIP"]) == []


def test_names_from_earlier_cells_resolve_with_a_context() -> None:
    ctx = Context()
    assert analyze("import pandas as pd\nfrom torch.utils.data import DataLoader as DL\n", context=ctx) == []
    assert codes("loader = DL(ds, batch_size=8)\n", context=ctx) == ["AIP101"]
    assert codes("loader = DL(ds, batch_size=8)\n") == []
    # symbols carry over too: a frame read in one cell, looped over in the next
    analyze("df = pd.read_csv('a.csv')\n", context=ctx)
    assert codes("for i in range(len(df)):\n    df.at[i, 'b'] = df.at[i, 'a'] * 2\n", context=ctx) == ["AIP301"]


def test_threads_target_defined_in_an_earlier_cell() -> None:
    ctx = Context()
    analyze("def work():\n    total = 0\n    for i in range(10**6):\n        total += i\n", context=ctx)
    assert codes("import threading\nthreading.Thread(target=work).start()\n", context=ctx) == ["AIP401"]


def test_live_namespace_resolves_objects() -> None:
    import torch
    from torch.utils.data import DataLoader, Dataset

    class Files(Dataset):  # each sample is a file read: the loader's copies are large
        def __init__(self, paths):
            self.paths = paths

        def __len__(self):
            return len(self.paths)

        def __getitem__(self, i):
            return open(self.paths[i], "rb").read()

    ns = {"Loader": DataLoader, "T": torch}
    assert codes("dl = Loader(ds)\n", namespace=ns) == ["AIP101"]
    assert codes("dl = T.utils.data.DataLoader(ds)\n", namespace=ns) == ["AIP101"]
    ns = {"batches": DataLoader(Files(["a.png", "b.png"]), batch_size=2), "device": "cuda"}
    assert codes("for b in batches:\n    b = b.to(device)\n", namespace=ns) == ["AIP102"]
    ns["batches"] = DataLoader(Files(["a.png", "b.png"]), batch_size=2, pin_memory=True)
    assert codes("for b in batches:\n    b = b.to(device, non_blocking=True)\n", namespace=ns) == []
    ns["batches"] = DataLoader(list(range(4)), batch_size=2)  # in memory: a small copy, not judged
    assert codes("for b in batches:\n    b = b.to(device)\n", namespace=ns) == []
    evaluation = "net.eval()\nfor x in xs:\n    y = net(x)\n"
    ns = {"net": torch.nn.Linear(2, 2)}
    assert codes(evaluation, namespace=ns) == ["AIP502", "AIP506"]
    ns = {"net": torch.compile(torch.nn.Linear(2, 2))}
    assert codes(evaluation, namespace=ns) == ["AIP502"]
    ns = {"net": torch.jit.trace(torch.nn.Linear(2, 2), torch.randn(1, 2))}  # a traced model is compiled
    assert codes(evaluation, namespace=ns) == ["AIP502"]


def test_live_model_in_eval_mode_is_evidence_of_inference() -> None:
    """`.eval()` called in an earlier cell, or chained (`model = model.to(device).eval()`): the live
    module's mode is the evidence; the same loop over a model left in training mode is not flagged."""
    import torch

    loop = "predictions = [net(batch) for batch in batches]\n"
    net = torch.nn.Linear(2, 2).eval()
    ns = {"net": net, "batches": [torch.randn(3, 2)] * 2}
    assert "AIP502" in codes(loop, namespace=ns)
    net.train()
    assert "AIP502" not in codes(loop, namespace=ns)
    net.eval()
    assert "AIP502" not in codes("with torch.no_grad():\n    " + loop, namespace=ns)
    assert "AIP502" not in codes("for batch in batches:\n    net(batch).sum().backward()\n", namespace=ns)


def test_live_namespace_numeric_list_and_frame() -> None:
    import pandas as pd

    ns = {"values": list(range(5000)), "df": pd.DataFrame({"a": range(100)})}
    assert codes("sq = [v * v for v in values]\n", namespace=ns) == ["AIP201"]
    assert codes("for i in range(len(df)):\n    df.loc[i, 'b'] = df.loc[i, 'a'] + 1\n", namespace=ns) == ["AIP301"]
    # a cell's own assignment wins over the namespace
    assert codes("values = ['a', 'b']\nsq = [v * 2 for v in values]\n", namespace=ns) == []


def test_ipython_syntax_and_line_mapping() -> None:
    cell = (
        "!nvidia-smi\n%matplotlib inline\nfiles = !ls\nfrom torch.utils.data import DataLoader\n"
        "%time dl = DataLoader(ds)\nx = DataLoader(ds)\n"
    )
    found = analyze(cell)  # a %time statement is the user's code: checked, at the user's columns
    assert [(f.code, f.line, f.col) for f in found] == [("AIP101", 5, 12), ("AIP101", 6, 5)]
    assert analyze("%timeit -n 3 DataLoader(ds)\n%time for i in range(3): pass\n") == []
    cell = "%time a = \\\n    1\nfrom torch.utils.data import DataLoader\ndl = DataLoader(ds)\n"
    (found,) = analyze(cell)  # the magic's two lines became one: later lines still map home
    assert (found.line, found.col) == (4, 6)


def test_top_level_await_parses() -> None:
    assert analyze("import asyncio\nresult = await asyncio.sleep(0)\n") == []


def test_python_cell_magics_lint_body_others_skipped() -> None:
    body = "from torch.utils.data import DataLoader\ndl = DataLoader(ds)\n"
    (f,) = analyze("%%time\n" + body)
    assert f.line == 3  # counted from the magic line, like the notebook shows it
    assert analyze("%%bash\nfor x in $(ls); do echo $x; done\n") == []
    assert analyze("%%html\n<b>DataLoader(ds)</b>\n") == []


def test_parse_error_is_one_aip000_finding() -> None:
    (f,) = analyze("import torch\n\ndef broken(:\n    pass\n")
    assert (f.code, f.line) == ("AIP000", 3)
    assert "invalid syntax" in f.message
    assert analyze("def broken(:\n", ignore=["AIP000"]) == []


def test_bad_inputs_do_not_crash() -> None:
    assert analyze("") == []
    assert analyze("\n\n   \n") == []
    assert analyze("# just a comment") == []
    big = "from torch.utils.data import DataLoader\n" + "x = 1\n" * 10_000 + "dl = DataLoader(ds)\n"
    assert [f.line for f in analyze(big)] == [10_002]
    nested = "".join("    " * i + f"if c{i}:\n" for i in range(90)) + "    " * 90 + "pass\n"
    assert analyze(nested) == []
    chain = "import os\nx = " + " + ".join(["a"] * 3000) + "\n"  # the parser is quadratic in such chains
    (f,) = analyze(chain)
    assert (f.code, f.name, f.line) == ("AIP000", "not-analysed", 2)
    data = "xs = [" + ", ".join(["-0.125"] * 3000) + "]\nys = [v * 2 for v in range(5000)]\n"
    assert [f.code for f in analyze(data)] == ["AIP201"]  # long data literals are fine
    parens = "x = " + "(" * 150 + "1" + ")" * 150 + "\n"
    assert all(f.code == "AIP000" for f in analyze(parens))
    assert [f.code for f in analyze("x = '\\udcff'\n")] == []


def test_live_namespace_functions_from_libraries() -> None:
    import numpy as np

    ns = {"append": np.append, "np_alias": np}
    assert codes("for v in vs:\n    arr = append(arr, v)\n", namespace=ns) == ["AIP203"]
    assert codes("for v in vs:\n    arr = np_alias.append(arr, v)\n", namespace=ns) == ["AIP203"]


def test_namespace_objects_with_hostile_attributes() -> None:
    class Weird:
        def __getattr__(self, name: str) -> object:
            raise RuntimeError(name)

        def __call__(self) -> None:
            pass

    assert codes("for x in xs:\n    y = w(x)\n", namespace={"w": Weird(), "xs": Weird()}) == []


def test_functions_from_earlier_cells_and_the_live_namespace(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ctx = Context()
    analyze("def margin(r):\n    return (r.price - r.cost) / r.price\n", context=ctx)
    assert codes("df['m'] = df.apply(margin, axis=1)\n", context=ctx) == ["AIP302"]

    (tmp_path / "helpers_for_aiperf_test.py").write_text(
        "import requests\n"
        "def crunch(n):\n    total = 0\n    for i in range(n):\n        total += i * i\n    return total\n"
        "def fetch(url):\n    return requests.get(url).text\n"
        "def ratio(r):\n    return r['a'] / r['b']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import helpers_for_aiperf_test as h

    ns = {"crunch": h.crunch, "fetch": h.fetch, "ratio": h.ratio, "print": print}
    pool = "from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(4) as ex:\n"
    assert codes(pool + "    list(ex.map(crunch, sizes))\n", namespace=ns) == ["AIP401"]
    assert codes(pool + "    list(ex.map(fetch, urls))\n", namespace=ns) == []
    assert codes("df['r'] = df.apply(ratio, axis=1)\n", namespace=ns) == ["AIP302"]
    assert codes("df['r'] = df.apply(print, axis=1)\n", namespace=ns) == []  # a builtin: no source
