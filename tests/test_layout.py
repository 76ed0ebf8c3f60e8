"""The package's layout keeps its promises: which part may import what at module level.

import-linter (run by ``make test``) checks the direct imports between parts; this test checks the
one thing it cannot see, *where* in a module an import sits: IPython, widgets, plotly, pandas and
torch are imported at module level only where the layout allows it, so ``%load_ext`` stays light
and a terminal or script never loads a widget library.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "aiperf_magic"
# top-level module -> the parts allowed to import it when a module loads
ALLOWED = {
    "IPython": ("ipython",),
    "ipywidgets": ("render",),
    "anywidget": ("render",),
    "plotly": ("render",),
    "pandas": (),
    "torch": (),
    # measure/frame_columns.py, which frames.py imports only once the user's process has pandas
    "numpy": ("measure",),
    "pynvml": (),
}


def module_level_imports(path: Path) -> set[str]:
    """Top-level names imported by statements that run when the module loads (not in functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.If) and not _is_type_checking(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.Try, ast.With)):
                visit(node.body)

    visit(tree.body)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "labextension" not in p.parts)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_heavy_libraries_only_where_the_layout_allows(path: Path) -> None:
    part = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    for name in module_level_imports(path) & set(ALLOWED):
        assert part in ALLOWED[name], f"{path.relative_to(PACKAGE)} imports {name} at module level"


def test_the_layout_is_the_map_of_one_cell() -> None:
    parts = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert parts == {"ipython", "measure", "cell", "rules", "verdicts", "fixes", "verification", "render",
                     "apply", "auto", "lint"}


def test_import_contracts_hold() -> None:
    """The same check ``make test`` runs first: import-linter's contracts from pyproject.toml."""
    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists():
        pytest.skip("import-linter is not installed (pip install .[dev])")
    out = subprocess.run([str(exe)], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert out.returncode == 0, out.stdout[-3000:]
