"""``aiperf`` command line: ``aiperf lint PATH...``, ``aiperf rules``, ``aiperf explain CODE``.

Exit codes of ``lint``: 0 nothing found, 1 findings (with ``--diff``: a fix to show), 2 usage error
or a file that could not be read, analysed, fixed or written (each is reported once, on stderr, and
the other files are still checked). Links and files that are not regular files are skipped with a
warning on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aiperf", description="Find performance traps in AI and data code (.py files and notebooks)."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    lint = sub.add_parser(
        "lint",
        help="check .py files, .ipynb notebooks and folders",
        description="Check files, notebooks and folders (recursively) for performance traps.",
    )
    lint.add_argument("paths", nargs="+", metavar="PATH", help=".py file, .ipynb notebook or folder")
    lint.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="output format")
    lint.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these code prefixes, comma-separated (e.g. AIP1,AIP301)",
    )
    lint.add_argument("--ignore", action="append", metavar="CODES", help="skip these code prefixes")
    lint.add_argument(
        "--preview",
        action="store_true",
        help="also run the preview rules (those whose measured precision is below the bar for default rules; "
        "the runtime-only rules run only when --select names their code)",
    )
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when something was found")
    lint.add_argument("--fix", action="store_true", help="apply the safe fixes to the files")
    lint.add_argument("--diff", action="store_true", help="print the fixes as a diff; change nothing")
    lint.add_argument("--unsafe-fixes", action="store_true", help="include fixes that may change results")
    sub.add_parser("rules", help="list the rule catalog")
    explain = sub.add_parser("explain", help="show the documentation of a rule")
    explain.add_argument("code", help="a rule code, e.g. AIP301")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # inside the try: a reader gone by exit time is the same case
        return code
    except BrokenPipeError:
        # `aiperf lint ... | head`: the reader left; stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse reports usage errors itself, with exit code 2
        return int(exc.code or 0)
    if args.command == "lint":
        return _lint(args)
    if args.command == "rules":
        from .rules.catalog import catalog

        print(catalog().text())
        return EXIT_CLEAN
    if args.command == "explain":
        from .rules.catalog import explain

        doc = explain(args.code)
        print(doc.text())
        return EXIT_CLEAN if doc.rule is not None else EXIT_ERROR
    parser.print_help()
    return EXIT_ERROR


def with_preview(select: list[str] | None, preview: bool) -> list[str] | None:
    """The selection ``--preview`` means: every lint rule, or every lint rule under the selected
    prefixes (exact codes select preview rules; prefixes alone select the default ones). ``ALL``
    means every lint rule too: the runtime-only rules run in the lint only by their exact code."""
    from .rules.registry import ALL, all_rules, lint_codes, split_codes

    prefixes = split_codes(select)
    if not preview and (prefixes is None or ALL not in prefixes):
        return select
    codes = lint_codes(prefixes)
    rules = all_rules()
    exact = [p for p in prefixes or () if p in rules and p not in codes]  # a runtime-only rule, by its code
    return [*codes, *exact] or list(prefixes or ())


def _lint(args: argparse.Namespace) -> int:
    """One pass over the files: each is fixed (``--fix``/``--diff``) and then checked, and each
    problem with a file is printed once, on stderr, with the exit code 2 at the end."""
    from .lint.files import ReadError, Skipped, iter_files, lint_path, unanalysed
    from .lint.formats import RENDERERS

    _warn_unknown_codes(args.select)
    args.select = with_preview(args.select, args.preview)
    if args.select is None:
        _note_when_no_default_rule()
    rewriting = bool(args.fix or args.diff)
    fix_file = _fix_file() if rewriting else None
    if rewriting and fix_file is None:
        return EXIT_ERROR
    items: list[Any] = []
    failed = changed = partial = 0
    for entry in iter_files(args.paths, rewriting=rewriting):
        if isinstance(entry, Skipped):
            print(f"aiperf: warning: {entry.path}: {entry.reason}", file=sys.stderr)
            continue
        if isinstance(entry, ReadError):
            print(f"aiperf: error: {entry.path}: {entry.reason}", file=sys.stderr)
            failed += 1
            continue
        if fix_file is not None:
            try:
                result = fix_file(
                    Path(entry),
                    select=args.select,
                    ignore=args.ignore,
                    unsafe=args.unsafe_fixes,
                    write=bool(args.fix and not args.diff),
                )
            except (OSError, ValueError) as exc:  # unreadable, malformed, or not writable: one line
                where = "" if str(exc).startswith(str(entry)) else f"{entry}: "
                print(f"aiperf: error: {where}{exc}", file=sys.stderr)
                failed += 1
                continue
            changed += bool(result.changed)
            if args.diff:
                if result.diff:
                    sys.stdout.write(result.diff)
                continue
        found = lint_path(entry, select=args.select, ignore=args.ignore)
        if isinstance(found, ReadError):
            print(f"aiperf: error: {found.path}: {found.reason}", file=sys.stderr)
            failed += 1
            continue
        part = unanalysed(found)
        if part is not None:  # its AIP000 finding is listed too; the rest of the file was checked
            where = part.path if part.cell is None else f"{part.path}:cell {part.cell}"
            print(f"aiperf: error: {where}:{part.finding.line}: {part.finding.message}", file=sys.stderr)
            partial += 1
        items.extend(found)
    if args.diff:
        if failed:
            return EXIT_ERROR
        return EXIT_FINDINGS if changed and not args.exit_zero else EXIT_CLEAN
    if args.fix and changed:
        print(f"aiperf: fixed {changed} file{'s' if changed > 1 else ''}", file=sys.stderr)
    print(RENDERERS[args.format](items, unread=failed, unanalysed=partial))
    if failed or partial:
        return EXIT_ERROR
    return EXIT_FINDINGS if items and not args.exit_zero else EXIT_CLEAN


def _warn_unknown_codes(select: list[str] | None) -> None:
    """A ``--select`` prefix that no code starts with selects nothing: say so instead of a clean run."""
    from .rules.registry import ALL, all_rules, split_codes

    codes = list(all_rules())
    for prefix in split_codes(select) or ():
        if prefix != ALL and not any(code.startswith(prefix) for code in codes):
            print(f"aiperf: warning: --select {prefix} matches no rule code (aiperf rules lists them)", file=sys.stderr)


def _note_when_no_default_rule() -> None:
    """Without ``--select`` or ``--preview``, say so when no rule earned a default place: a quiet
    run would otherwise read as clean code."""
    from .rules.precision import DEFAULT_PRECISION
    from .rules.registry import static_rules

    if all(r.preview for r in static_rules().values()):
        print(
            f"aiperf: note: no rule is on by default (none measured {DEFAULT_PRECISION:.0%} precise on code it was "
            "not tuned on): only syntax errors are reported; --preview runs the preview rules (aiperf rules)",
            file=sys.stderr,
        )


def _fix_file() -> Any:
    try:
        from .lint.fix_files import fix_file
    except ImportError as exc:
        print(f"aiperf: error: fixes are not available in this installation ({exc})", file=sys.stderr)
        return None
    return fix_file


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
