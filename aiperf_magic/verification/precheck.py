"""Read a cell for likely external side effects before anything runs.

The hints word Try's messages ("line 3 writes to out.txt") and the ``--allow-io`` announcement; they
never refuse a trial by themselves (the runtime guard decides). Exception: in-process trials refuse
``!cmd`` shell escapes and line magics other than ``%time``/``%timeit`` up front, since those act on
the kernel itself and an in-process trial could not undo them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

WRITERS = {
    "to_csv": "writes a CSV file",
    "to_parquet": "writes a Parquet file",
    "to_excel": "writes an Excel file",
    "to_json": "writes a JSON file",
    "to_pickle": "writes a pickle file",
    "to_feather": "writes a Feather file",
    "to_hdf": "writes an HDF5 file",
    "to_sql": "writes to a database",
    "to_stata": "writes a Stata file",
    "to_orc": "writes an ORC file",
    "savefig": "saves a figure",
    "write_text": "writes a file",
    "write_bytes": "writes a file",
    "unlink": "deletes a file",
    "rmdir": "removes a folder",
    "mkdir": "creates a folder",
    "touch": "creates a file",
    "commit": "commits to a database",
}
MODULE_CALLS = {
    ("np", "save"): "writes a NumPy file",
    ("np", "savez"): "writes a NumPy file",
    ("np", "savetxt"): "writes a text file",
    ("numpy", "save"): "writes a NumPy file",
    ("torch", "save"): "writes a torch file",
    ("sqlite3", "connect"): "opens a SQLite database",
    ("os", "system"): "runs a shell command",
    ("os", "remove"): "deletes a file",
    ("os", "unlink"): "deletes a file",
    ("os", "rename"): "renames a file",
    ("os", "replace"): "replaces a file",
    ("os", "makedirs"): "creates folders",
    ("shutil", "rmtree"): "deletes a folder",
    ("shutil", "copy"): "copies a file",
    ("shutil", "move"): "moves a file",
    ("pickle", "dump"): "writes a pickle",
    ("json", "dump"): "writes JSON",
}
NETWORK = {"requests", "httpx", "urllib", "aiohttp", "socket", "http", "smtplib", "ftplib", "boto3"}
PROCESSES = {"subprocess"}
PURE_MAGICS = {"time", "timeit"}


@dataclass
class Hint:
    line: int
    what: str  # "writes to out.txt", "runs the shell command `ls`"


def hints(source: str, python: str) -> list[Hint]:
    """Likely I/O in a cell: ``source`` as the user wrote it, ``python`` after IPython's translation."""
    found = [Hint(n, w) for n, w in _ipython_lines(source)]
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            what = _call(node)
            if what:
                found.append(Hint(node.lineno, what))
    seen: set[int] = set()
    out = []
    for h in sorted(found, key=lambda h: h.line):
        if h.line not in seen:
            seen.add(h.line)
            out.append(h)
    return out


def kernel_changing_lines(source: str) -> list[Hint]:
    """``!cmd`` and magics other than %time/%timeit: refused up front by in-process trials."""
    return [Hint(n, w) for n, w in _ipython_lines(source, pure_ok=True)]


def _ipython_lines(source: str, pure_ok: bool = False) -> list[tuple[int, str]]:
    out = []
    for n, raw in enumerate(source.splitlines(), 1):
        line = raw.strip()
        if line.startswith("!"):
            out.append((n, f"runs the shell command `{line[1:].strip()}`"))
        elif "= !" in line or "=!" in line.replace(" ", ""):
            out.append((n, f"runs the shell command `{line.split('!', 1)[1].strip()}`"))
        elif line.startswith("%"):
            name = line.lstrip("%").split(None, 1)[0] if line.lstrip("%") else ""
            if pure_ok and name in PURE_MAGICS:
                continue
            out.append((n, f"runs the magic %{name}"))
    return out


def _call(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        if func.id == "open":
            return _open(node)
        return None
    if not isinstance(func, ast.Attribute):
        return None
    attr = func.attr
    base = func.value
    root = base
    while isinstance(root, ast.Attribute):
        root = root.value
    root_name = root.id if isinstance(root, ast.Name) else ""
    if isinstance(base, ast.Name) and (base.id, attr) in MODULE_CALLS:
        return _with_path(MODULE_CALLS[(base.id, attr)], node)
    if root_name in NETWORK:
        return f"uses the network ({root_name}.{attr})"
    if root_name in PROCESSES:
        return f"runs a command ({root_name}.{attr})"
    if root_name == "get_ipython" or (isinstance(root, ast.Call) and getattr(root.func, "id", "") == "get_ipython"):
        return None  # words come from the source line (!cmd, %magic)
    if attr in ("write", "writelines"):
        return "writes to a file"
    if attr == "execute" and node.args and isinstance(node.args[0], ast.Constant):
        sql = str(node.args[0].value).lstrip().split(None, 1)
        if sql and sql[0].lower() in ("insert", "update", "delete", "create", "drop", "alter", "replace"):
            return "writes to a database"
    if attr in WRITERS:
        return _with_path(WRITERS[attr], node)
    return None


def _open(node: ast.Call) -> str | None:
    mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
    if not isinstance(mode, ast.Constant) or not isinstance(mode.value, str):
        return None
    if not any(c in mode.value for c in "wax+"):
        return None
    verb = "appends to" if "a" in mode.value else "writes to"
    target = node.args[0] if node.args else None
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return f"{verb} {target.value}"
    return f"{verb} a file"


def _with_path(what: str, node: ast.Call) -> str:
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
        return f"{what} ({arg.value})"
    return what
