"""Precision of the trap rules on public code we did not write, measured against hand labels.

Lints local checkouts of public repositories (one folder per repository, named ``owner+name``,
under a common corpus root) through the CLI in a subprocess, so it measures the package as it
is now, preview rules included when ``lint`` offers ``--preview``.

    python benchmarks/corpus.py CORPUS/owner+name ... [--root CORPUS] [--labels FILE] [--json]
    python benchmarks/corpus.py CORPUS/owner+name ... --fix [--run] [--run-timeout 60] [--run-budget S] [--json]

Without ``--fix``: files, parse failures (AIP000 findings, read errors) per repository, findings
per rule, time; then, with labels (default: ``corpus_labels.json`` beside this script), each
finding is matched to its label by (repo, path, cell, line, code) and precision is printed per
rule and overall, TP / (TP + FP) and TP / (TP + FP + debatable), with the labelled findings that
disappeared (a lost TP is a regression) and the findings that appeared since the labels were made.

With ``--fix``: every .py/.ipynb file is copied to a temporary folder, ``lint --fix
--unsafe-fixes`` rewrites the copies, and every rewritten file must still parse (notebook cells
after IPython's own transformation). With ``--run``, every rewritten notebook and script that
runs here (CPU only, small local data, within the time limit) also runs before and after, and
their outputs are compared (``corpus_run.py``). Goal: 0 breakages.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent  # measure the checkout this script lives in
Key = tuple[str, str, "int | None", int, str]  # repo, path, cell, line, code
SUFFIXES = (".py", ".ipynb")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m aiperf_magic lint ARGS`` with this checkout first on the path."""
    env = dict(os.environ)
    if (PACKAGE_ROOT / "aiperf_magic").is_dir():
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH")) if p)
    cmd = [sys.executable, "-m", "aiperf_magic", "lint", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)


def preview_flag() -> list[str]:
    return ["--preview"] if "--preview" in cli("--help").stdout else []


def every_rule() -> list[str]:
    """``--select`` with the exact code of every rule that reads code (default, preview and those
    that left the lint for ``%%aiperf``, which an exact code still runs) and AIP000: the corpus
    measures them all. A checkout whose registry cannot be listed gets ``--preview``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH")) if p)
    code = "from aiperf_magic.rules.registry import static_rules; print(','.join(static_rules()))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    codes = sorted({*proc.stdout.strip().split(","), *CODES} - {""}) if proc.returncode == 0 else []
    return ["--select", ",".join(["AIP000", *codes])] if codes else preview_flag()


def lint(paths: list[str]) -> tuple[list[dict[str, Any]], list[tuple[str, str]], float]:
    """Findings (JSON objects), read errors (path, reason) and seconds taken."""
    start = time.perf_counter()
    proc = cli(*paths, "--format", "json", "--exit-zero", *every_rule())
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 2) or not proc.stdout.strip():
        sys.exit(f"lint failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    errors = []
    for line in proc.stderr.splitlines():
        if line.startswith("aiperf: error: "):
            path, _, reason = line[len("aiperf: error: ") :].partition(": ")
            errors.append((path, reason))
    return json.loads(proc.stdout), errors, seconds


def locate(path: str, root: Path) -> tuple[str, str]:
    """("owner/name", path inside the repository) for a file under the corpus root."""
    parts = Path(path).resolve().relative_to(root).parts
    return parts[0].replace("+", "/", 1), "/".join(parts[1:])


def key_of(item: dict[str, Any], root: Path | None = None) -> Key:
    repo, path = locate(item["path"], root) if root else (item["repo"], item["path"])
    return repo, path, item.get("cell"), int(item["line"]), item["code"]


def source_files(paths: list[str]) -> list[Path]:
    """The .py/.ipynb files under PATHs, skipping hidden folders (checkpoints) and virtual environments."""
    found: list[Path] = []
    for p in map(Path, paths):
        for f in [p] if p.is_file() else sorted(p.rglob("*")):
            skip = any(part.startswith(".") or part in ("venv", "__pycache__") for part in f.parts[len(p.parts) :])
            if f.suffix in SUFFIXES and f.is_file() and not skip:
                found.append(f)
    return found


def load_labels(path: Path) -> tuple[list[dict[str, Any]], Counter[Key]]:
    """Labels and the baseline (every finding reported when the labels were made, labelled or not)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    labels = data["labels"] if isinstance(data, dict) else data
    baseline = Counter(key_of(item) for item in labels)
    for repo, rel, cell, line, code in data.get("unlabelled", []) if isinstance(data, dict) else []:
        baseline[(repo, rel, cell, line, code)] += 1
    return labels, baseline


def load_split(path: Path) -> dict[str, str]:
    """Repository -> "tuning" or "held_out", from the labels' ``split`` (empty without one)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    split = data.get("split", {}) if isinstance(data, dict) else {}
    return {repo: part for part in SPLITS for repo in split.get(part, [])}


SPLITS = ("held_out", "tuning")  # held_out decides the default rules; tuning is what the rules were tuned on


def pct(num: int, den: int) -> float | None:
    return round(100.0 * num / den, 1) if den else None


def pair(labs: list[dict[str, Any]], items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Labels matched to findings of one key (by ``col`` first, when a label has one), and those left over."""
    cols = Counter(f.get("col") for f in items)
    matched, rest = [], []
    for lab in labs:
        if "col" in lab and cols[lab["col"]] > 0:
            cols[lab["col"]] -= 1
            matched.append(lab)
        else:
            rest.append(lab)
    free = len(items) - len(matched)
    return matched + rest[:free], rest[free:]


def compare(
    findings: list[dict[str, Any]],
    root: Path,
    linted: set[tuple[str, str]],
    labels: list[dict[str, Any]],
    baseline: Counter[Key],
) -> dict[str, Any]:
    """Match findings to labels; ``linted`` is the (repo, path) of every file checked this run."""
    current: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for f in findings:
        current[key_of(f, root)].append(f)
    by_key: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for lab in labels:
        if (lab["repo"], lab["path"]) in linted:
            by_key[key_of(lab)].append(lab)
    rules: dict[str, Counter[str]] = defaultdict(Counter)
    disappeared: list[dict[str, Any]] = []
    appeared: list[dict[str, Any]] = []
    for key, labs in by_key.items():
        matched, lost = pair(labs, current.get(key, []))
        rules[key[4]].update(lab["label"] for lab in matched)
        disappeared += lost
    for key, items in current.items():
        for f in items[max(len(by_key.get(key, [])), baseline.get(key, 0)) :]:
            place = dict(zip(("repo", "path", "cell", "line", "code"), key, strict=True))
            appeared.append({**place, "message": f["message"]})
    table, total = {}, Counter[str]()
    counts = Counter(k[4] for k, items in current.items() for _ in items if k[4] != "AIP000")
    for code in sorted(set(counts) | set(rules)):
        total.update(rules[code])
        table[code] = row(counts[code], rules[code])
    sampled = [r for r in table.values() if r["precision"] is not None]
    weight = sum(r["findings"] for r in sampled)
    overall = row(sum(counts.values()), total)
    # each rule's precision weighted by its number of findings: the estimate for "a finding, picked at random"
    overall["precision_weighted"] = (
        round(sum(r["findings"] * r["precision"] for r in sampled) / weight, 1) if weight else None
    )
    return {
        "rules": table,
        "overall": overall,
        "disappeared": disappeared,
        "lost_tp": sum(d["label"] == "TP" for d in disappeared),
        "appeared": appeared,
    }


def row(findings: int, c: Counter[str]) -> dict[str, Any]:
    tp, fp, deb = c["TP"], c["FP"], c["debatable"]
    counts = {"findings": findings, "labelled": tp + fp + deb, "TP": tp, "FP": fp, "debatable": deb}
    return {**counts, "precision": pct(tp, tp + fp), "precision_debatable_false": pct(tp, tp + fp + deb)}


def parses(source: str, notebook: bool) -> bool:
    """Whether Python parses and compiles the source (a notebook cell after IPython's transformation)."""
    if notebook:
        from IPython.core.inputtransformer2 import TransformerManager

        try:
            source = TransformerManager().transform_cell(source)
        except Exception:  # IPython refuses it: it would not run either
            return False
    try:  # compiled, not only parsed: also catches `return`/`break` outside their block and the like
        with warnings.catch_warnings():  # the code's own SyntaxWarnings are not ours to print
            warnings.simplefilter("ignore")
            compile(source, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def units(text: str, notebook: bool) -> list[tuple[int | None, str]]:
    """The code units to parse: the file, or each code cell of a notebook (index among all cells)."""
    if not notebook:
        return [(None, text)]
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return []
    out: list[tuple[int | None, str]] = []
    for i, c in enumerate(cells):
        if c.get("cell_type") == "code":
            src = c.get("source", "")
            out.append((i, "".join(src) if isinstance(src, list) else src))
    return out


def fix_check(
    paths: list[str], root: Path, run: bool = False, timeout: float = 60.0, budget: float | None = None
) -> dict[str, Any]:
    """Fix copies of the files; every unit that parsed before must parse after. With ``run``, the
    rewritten files that run here run before and after, and must print the same."""
    with tempfile.TemporaryDirectory(prefix="aiperf-corpus-") as tmp:
        base = Path(tmp).resolve()
        originals: dict[Path, str] = {}
        for f in source_files(paths):
            dest = base / f.resolve().relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest)
            originals[dest] = dest.read_text(encoding="utf-8", errors="replace")
        tops = sorted({str(base / p.relative_to(base).parts[0]) for p in originals})
        before, _, _ = lint(tops)
        start = time.perf_counter()
        proc = cli(*tops, "--fix", "--unsafe-fixes", "--exit-zero", *every_rule())
        seconds = time.perf_counter() - start
        after, _, _ = lint(tops)
        rewritten = [p for p, text in originals.items() if p.read_text(encoding="utf-8", errors="replace") != text]
        changed = {str(p) for p in rewritten}
        fixes = Counter(f["code"] for f in before if f["path"] in changed)
        fixes.subtract(f["code"] for f in after if f["path"] in changed)
        breakages: list[dict[str, Any]] = []
        for p in rewritten:
            nb = p.suffix == ".ipynb"
            old, new = units(originals[p], nb), units(p.read_text(encoding="utf-8", errors="replace"), nb)
            repo, rel = locate(str(p), base)
            if len(old) != len(new):
                breakages.append({"repo": repo, "path": rel, "cell": None, "why": "code cells added or removed"})
                continue
            for (cell, a), (_, b) in zip(old, new, strict=True):
                if a != b and parses(a, nb) and not parses(b, nb):
                    breakages.append({"repo": repo, "path": rel, "cell": cell, "why": "no longer parses"})
        runs = run_rewritten(rewritten, originals, base, root, timeout, budget) if run else None
        if runs is not None:
            breakages += [
                {"repo": r["repo"], "path": r["path"], "cell": None, "why": r["why"]}
                for r in runs if r["status"] == "broken"
            ]
        return {
            "files": len(originals),
            "files_rewritten": len(rewritten),
            "runs": runs,
            "fixes": {k: v for k, v in sorted(fixes.items()) if v > 0},
            "breakages": breakages,
            "seconds": round(seconds, 1),
            "errors": [ln for ln in proc.stderr.splitlines() if ln.startswith("aiperf: error")],
        }


def run_rewritten(
    rewritten: list[Path], originals: dict[Path, str], base: Path, root: Path, timeout: float,
    budget: float | None = None,
) -> list[dict[str, Any]]:
    """Before/after runs of every rewritten file, from its own folder in the corpus; once ``budget``
    seconds are spent, the files left are listed as not run."""
    sys.path.insert(0, str(HERE))
    from corpus_run import check

    out = []
    start = time.perf_counter()
    for p in sorted(rewritten):
        original = root / p.relative_to(base)
        repo, rel = locate(str(original), root)
        if budget is not None and time.perf_counter() - start > budget:
            out.append({"repo": repo, "path": rel, "status": "skipped", "why": "not run: the --run-budget was spent"})
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        nb = p.suffix == ".ipynb"
        pairs = zip(units(originals[p], nb), units(text, nb), strict=False)
        changed = [k for k, ((_, a), (_, b)) in enumerate(pairs) if a != b]  # code cells, counted as run
        result = check(original, text, root / p.relative_to(base).parts[0], timeout, changed)
        out.append({"repo": repo, "path": rel, **result})
        print(f"  run {repo}/{rel}: {result['status']} {result['why'][:100]}", file=sys.stderr)
    return out


def where(item: dict[str, Any]) -> str:
    cell = f":cell {item['cell']}" if item.get("cell") is not None else ""
    line = f":{item['line']}" if "line" in item else ""
    return f"{item['repo']}/{item['path']}{cell}{line}"


def show_pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f} %"


def print_report(rep: dict[str, Any]) -> None:
    print(f"{rep['files']} files in {len(rep['repos'])} repositories, linted in {rep['seconds']:.1f} s")
    print("\nrepository | files | parse failures (AIP000) | read errors")
    for repo, r in sorted(rep["repos"].items()):
        print(f"{repo} | {r['files']} | {r['parse_failures']} | {len(r['read_errors'])}")
    print("\nfindings per rule: " + ", ".join(f"{k} {v}" for k, v in rep["rules"].items()))
    prec = rep.get("precision")
    if not prec:
        return
    titles = {
        "held_out": "held-out repositories (not read while tuning the rules: these decide the default rules)",
        "tuning": "tuning repositories (the rules were tuned on them: optimistic)",
    }
    for part, sub in rep.get("splits", {}).items():
        print(f"\nprecision on {len(sub['repos'])} {titles[part]}")
        print_table(sub)
    print(f"\nprecision against {os.path.relpath(rep['labels'])}" + (", all repositories" if "splits" in rep else ""))
    print_table(prec)
    print(f"\ndisappeared (labelled, no longer reported): {len(prec['disappeared'])}, TP among them: {prec['lost_tp']}")
    for d in prec["disappeared"]:
        tag = "REGRESSION TP" if d["label"] == "TP" else d["label"]
        print(f"  {tag} {d['code']} {where(d)}  {d.get('reason', '')}")
    print(f"appeared (reported, not in the labelled baseline): {len(prec['appeared'])}")
    for a in prec["appeared"]:
        print(f"  {a['code']} {where(a)}  {a['message']}")


def print_table(prec: dict[str, Any]) -> None:
    print("rule | findings | labelled | TP | FP | debatable | precision | debatable as FP")
    for code, r in [*prec["rules"].items(), ("overall", prec["overall"])]:
        cols = [r[k] for k in ("findings", "labelled", "TP", "FP", "debatable")]
        pcts = show_pct(r["precision"]), show_pct(r["precision_debatable_false"])
        print(" | ".join([code, *map(str, cols), *pcts]))
    o = prec["overall"]
    print(
        f"overall precision: {show_pct(o['precision'])} TP/(TP+FP); {show_pct(o['precision_debatable_false'])} "
        f"counting debatable as false; {show_pct(o['precision_weighted'])} weighting each rule by its findings"
    )


def print_fix(rep: dict[str, Any]) -> None:
    done = f"{rep['files_rewritten']} rewritten in {rep['seconds']} s"
    print(f"--fix --unsafe-fixes on copies of {rep['files']} files: {done}")
    fixes = ", ".join(f"{k} {v}" for k, v in rep["fixes"].items()) or "none"
    print(f"fixes applied per rule (findings gone from the rewritten files): {fixes}")
    runs = rep.get("runs")
    if runs is not None:
        counts = Counter(r["status"] for r in runs)
        print(
            f"run before/after: {counts['equal']} equal, {counts['broken']} broken, {counts['slower']} past the "
            f"time limit after, {counts['skipped']} not runnable here up to a rewritten cell (GPU, network, data "
            "or modules absent, over the time limit)"
        )
        skipped = Counter(_skip_class(r["why"]) for r in runs if r["status"] == "skipped")
        print("  not runnable: " + ", ".join(f"{k} {v}" for k, v in skipped.most_common()))
    print(f"breakages (parse, and with --run: raises or prints other values): {len(rep['breakages'])} (goal 0)")
    for b in rep["breakages"]:
        print(f"  {where(b)}  {b['why']}")
    for e in rep["errors"]:
        print(f"  {e}")


def _skip_class(why: str) -> str:
    """"ModuleNotFoundError", "timed out"...: why a file could not run here, in a word."""
    text = why.split(": ", 1)[-1]
    if "timed out" in text:
        return "timed out"
    if "budget" in text:
        return "run budget spent"
    head = text.split(":", 1)[0]
    return head if head.isidentifier() else "other"


def default_root(paths: list[str]) -> Path:
    root = Path(os.path.commonpath([str(Path(p).resolve()) for p in paths]))
    if root.is_file() or "+" in root.name:  # one repository (or file) given: its parent is the corpus
        while "+" not in root.name and root.parent != root:
            root = root.parent
        root = root.parent
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH", help="repository folders (owner+name) or files in them")
    parser.add_argument("--root", type=Path, help="corpus root (default: common parent of PATHs)")
    default_labels = HERE / "corpus_labels.json"
    parser.add_argument("--labels", type=Path, default=default_labels if default_labels.exists() else None)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--fix", action="store_true", help="fix copies of the files and check they still parse")
    parser.add_argument("--run", action="store_true", help="with --fix: run rewritten files before and after")
    parser.add_argument("--run-timeout", type=float, default=60.0, help="seconds per run of one file (--run)")
    parser.add_argument("--run-budget", type=float, help="seconds for all the runs; files left are listed as not run")
    parser.add_argument("--findings", type=Path, help="also write every finding (JSON, as `lint` prints it) there")
    parser.add_argument(
        "--write-precision",
        action="store_true",
        help="write the measured precision of every rule into aiperf_magic/rules/precision.py (decides "
        "which rules are on by default)",
    )
    args = parser.parse_args(argv)
    root = (args.root or default_root(args.paths)).resolve()
    if args.fix:
        rep = fix_check(args.paths, root, args.run, args.run_timeout, args.run_budget)
    else:
        rep = survey(args.paths, root, args.labels, args.findings)
    if args.write_precision and rep.get("precision"):
        write_precision(rep, args.labels)
    if args.json:
        print(json.dumps(rep, indent=1))
    else:
        (print_fix if args.fix else print_report)(rep)
    return 1 if rep.get("breakages") else 0


PRECISION_FILE = PACKAGE_ROOT / "aiperf_magic" / "rules" / "precision.py"


def write_precision(rep: dict[str, Any], labels_path: Path | None) -> None:
    """Replace the generated block of ``rules/precision.py`` with this run's numbers: with a split,
    MEASURED (which decides the default rules) is the held-out part and TUNED the tuning part."""
    data = json.loads(labels_path.read_text(encoding="utf-8")) if labels_path else {}
    split = data.get("split", {})
    parts = rep.get("splits", {})
    held = parts.get("held_out")
    decided = held or rep["precision"]
    repos = held["repos"] if held else list(data.get("repos", [])) or list(rep["repos"])
    files = sum(rep["repos"].get(r, {}).get("files", 0) for r in repos) if held else rep["files"]
    corpus = f"{len(repos)} public repositories of AI/data notebooks and scripts, {files:,} files"
    if held:
        tuned = parts.get("tuning", {}).get("repos") or split.get("tuning", [])
        corpus += f", none of them read while the rules were tuned on {len(tuned)} others"
    date = split.get("held_out_labelled_on") if held else None
    lines = [
        "# BEGIN GENERATED",
        *string_constant("CORPUS", corpus),
        f'CORPUS_DATE = "{date or data.get("labelled_on", time.strftime("%Y-%m-%d"))}"',
        *measured_block("MEASURED", decided["rules"], rep["rules"]),
        *measured_block("TUNED", parts["tuning"]["rules"] if "tuning" in parts else {}, {}),
        "# END GENERATED",
    ]
    text = PRECISION_FILE.read_text(encoding="utf-8")
    head, _, rest = text.partition("# BEGIN GENERATED")
    _, _, tail = rest.partition("# END GENERATED")
    PRECISION_FILE.write_text(head + "\n".join(lines) + tail, encoding="utf-8")
    print(f"wrote {os.path.relpath(PRECISION_FILE)}", file=sys.stderr)


def string_constant(name: str, text: str) -> list[str]:
    """``NAME = "text"``, split over lines in parentheses when it would pass 100 characters."""
    if len(name) + len(text) < 95:
        return [f"{name} = {json.dumps(text)}"]
    words, parts = text.split(" "), [""]
    for word in words:
        if len(parts[-1]) + len(word) > 90:
            parts.append("")
        parts[-1] += word + " "
    parts[-1] = parts[-1].rstrip()
    return [f"{name} = (", *(f"    {json.dumps(part)}" for part in parts), ")"]


def measured_block(name: str, table: dict[str, Any], found: dict[str, int]) -> list[str]:
    lines = [f"{name}: dict[str, Measured] = {{"]
    for code in sorted(set(table) | set(found) | set(CODES)):
        r = table.get(code, {"findings": 0, "TP": 0, "FP": 0, "debatable": 0})
        lines.append(
            f'    "{code}": Measured(findings={r["findings"]}, tp={r["TP"]}, fp={r["FP"]}, debatable={r["debatable"]}),'
        )
    return [*lines, "}"]


# Every code a static rule reports: listed in the precision file even without a finding.
CODES = [
    f"AIP{n}"
    for n in (101, 102, 103, 104, 201, 202, 203, 301, 302, 304, 401, 402, 501, 502, 503, 504, 505, 506, 601, 602)
]


def survey(paths: list[str], root: Path, labels_path: Path | None, dump: Path | None = None) -> dict[str, Any]:
    """Lint the corpus: files, parse failures and read errors per repository, findings per rule, precision."""
    findings, errors, seconds = lint(paths)
    if dump is not None:
        dump.write_text(json.dumps(findings, indent=1), encoding="utf-8")
    repos: dict[str, dict[str, Any]] = defaultdict(lambda: {"files": 0, "parse_failures": 0, "read_errors": []})
    files = source_files(paths)
    for f in files:
        repos[locate(str(f), root)[0]]["files"] += 1
    for item in findings:
        if item["code"] == "AIP000":
            repos[locate(item["path"], root)[0]]["parse_failures"] += 1
    for path, reason in errors:
        repo, rel = locate(path, root)
        repos[repo]["read_errors"].append(f"{rel}: {reason}")
    rules = Counter(item["code"] for item in findings if item["code"] != "AIP000")
    rep: dict[str, Any] = {
        "files": len(files),
        "seconds": round(seconds, 1),
        "repos": dict(repos),
        "rules": dict(sorted(rules.items())),
        "labels": str(labels_path) if labels_path else None,
    }
    if labels_path:
        labels, baseline = load_labels(labels_path)
        linted = {locate(str(f), root) for f in files}
        rep["precision"] = compare(findings, root, linted, labels, baseline)
        split = load_split(labels_path)
        parts = {}
        for part in SPLITS:
            repos = {repo for repo, p in split.items() if p == part}
            mine = {key for key in linted if key[0] in repos}
            if mine:
                found = [f for f in findings if locate(f["path"], root)[0] in repos]
                parts[part] = {**compare(found, root, mine, labels, baseline), "repos": sorted({k[0] for k in mine})}
        if parts:
            rep["splits"] = parts
    return rep


if __name__ == "__main__":
    raise SystemExit(main())
