"""The catalog as something to show: a table of rules, and one rule's documentation.

Both objects print as text in a terminal (``_repr_pretty_``) and render as HTML in a notebook
(``_repr_html_``, every string escaped).
"""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass
from typing import Any

from .precision import (
    CORPUS,
    CORPUS_DATE,
    DEFAULT_PRECISION,
    DEFAULT_SAMPLE,
    FOUND_FROM_RUN,
    LINT_PRECISION,
    LINT_SAMPLE,
    Measured,
    measured,
    tuned,
)
from .registry import Rule, all_rules, split_codes


@dataclass
class RuleTable:
    rules: list[Rule]

    def text(self) -> str:
        width = max((len(r.name) for r in self.rules), default=4)
        status = max((len(r.status) for r in self.rules), default=7)
        rows = [f"{'code':<7} {'name':<{width}}  fix  {'status':<{status}}  message"]
        for r in self.rules:
            fix = "yes" if r.fixable else ("run" if r.runtime else " - ")
            rows.append(f"{r.code:<7} {r.name:<{width}}  {fix}  {r.status:<{status}}  {r.message}")
        rows.append("fix: yes = a rewrite is proposed; run = found at run time by %%aiperf, not by the linter.")
        rows.append(
            "status: preview = run only with --preview / select=['ALL'] (precision on code it was not tuned on "
            f"not yet {DEFAULT_PRECISION:.0%} over {DEFAULT_SAMPLE} labelled findings); runtime only = under "
            f"{LINT_PRECISION:.0%} there: %%aiperf runs it, the linter only with --select CODE."
        )
        rows.append("Details: %aiperf explain CODE (aiperf explain CODE on the command line).")
        return "\n".join(rows)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        e = html.escape
        body = "".join(
            f"<tr><td><code>{e(r.code)}</code></td><td>{e(r.name)}</td>"
            f"<td>{'yes' if r.fixable else ('runtime' if r.runtime else '')}</td>"
            f"<td>{e(r.status)}</td><td>{_inline(r.message)}</td></tr>"
            for r in self.rules
        )
        return (
            '<table class="aiperf-rules"><thead><tr><th>code</th><th>name</th><th>fix</th>'
            f"<th>status</th><th>message</th></tr></thead><tbody>{body}</tbody></table>"
            "<p>Details: <code>%aiperf explain CODE</code></p>"
        )

    def __repr__(self) -> str:
        return f"RuleTable({len(self.rules)} rules)"


@dataclass
class RuleDoc:
    rule: Rule | None
    error: str = ""

    def text(self) -> str:
        if self.rule is None:
            return self.error
        r = self.rule
        fix = "fix available" if r.fixable else ("found at run time" if r.runtime else "no automatic fix")
        return f"{r.code} {r.name} ({fix}; {precision_note(r)})\n{r.message}\n\n{r.doc}"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        if self.rule is None:
            return f'<pre class="aiperf-error">{html.escape(self.error)}</pre>'
        r = self.rule
        head = (
            f"<h3><code>{html.escape(r.code)}</code> {html.escape(r.name)}</h3><p>{_inline(r.message)}</p>"
            f"<p><i>{html.escape(precision_note(r))}</i></p>"
        )
        return f'<div class="aiperf-rule">{head}{markdown_html(r.doc)}</div>'

    def __repr__(self) -> str:
        return f"RuleDoc({self.rule.code if self.rule else None!r})"


def catalog(prefixes: list[str] | None = None) -> RuleTable:
    """The rules whose codes start with one of ``prefixes`` (all rules when none are given)."""
    sel = split_codes(prefixes) if prefixes else None
    return RuleTable([r for code, r in all_rules().items() if sel is None or code.startswith(sel)])


def explain(code: str) -> RuleDoc:
    rules = all_rules()
    key = code.strip().upper()
    if key in rules:
        return RuleDoc(rules[key])
    family = [c for c in rules if key and c.startswith(key[:4])]  # AIP3.. -> the AIP3xx codes first
    near = family[:5] + [c for c in difflib.get_close_matches(key, list(rules), n=5, cutoff=0.6) if c not in family]
    near = near[:5]
    hint = f" Did you mean {', '.join(near)}?" if near else ""
    return RuleDoc(
        None,
        f"Unknown rule code {code!r}.{hint} `%aiperf rules` lists all codes ({next(iter(rules))}-{list(rules)[-1]}).",
    )


def _inline(text: str) -> str:
    """Escape, then turn `code` spans into <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def markdown_html(doc: str) -> str:
    """The small Markdown subset rule docs use: ## headings, ``` blocks, - lists, paragraphs."""
    out: list[str] = []
    para: list[str] = []
    in_code = in_list = False

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    for line in doc.splitlines():
        if line.startswith("```"):
            flush()
            out.append("</code></pre>" if in_code else "<pre><code>")
            in_code = not in_code
        elif in_code:
            out.append(html.escape(line) + "\n")
        elif line.startswith("## "):
            flush()
            out.append(f"<h4>{html.escape(line[3:])}</h4>")
        elif line.startswith("- "):
            flush()
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{_inline(line[2:])}</li>")
        elif not line.strip():
            flush()
            if in_list:
                out.append("</ul>")
                in_list = False
        elif in_list and line.startswith("  "):
            out[-1] = out[-1][:-5] + " " + _inline(line.strip()) + "</li>"
        else:
            para.append(line.strip())
    flush()
    if in_list:
        out.append("</ul>")
    return "".join(out)


def precision_note(r: Rule) -> str:
    """The rule's status and measured precision, in one phrase."""
    if r.kind != "static":
        return "found at run time" if r.runtime else "always on"
    m = measured(r.code)
    status = r.status
    if r.runtime_only:
        status += "; %%aiperf also finds it from the run" if r.code in FOUND_FROM_RUN else "; %%aiperf runs it"
    if m is None or m.precision is None:
        return f"{status}; no held-out finding labelled true or false yet"
    return (
        f"{status}; precision {m.precision:.0%} over {m.decided} findings labelled true or false"
        f" ({m.debatable} debatable) on held-out repositories, labelled on {CORPUS_DATE}"
    )


def _cells(m: Measured | None) -> tuple[str, str, str]:
    if m is None:
        return "", "", ""
    prec = "n/a" if m.precision is None else f"{m.precision:.0%}"
    return prec, str(m.findings), f"{m.labelled} ({m.tp}/{m.fp}/{m.debatable})"


def markdown_catalog() -> str:
    """The catalog section of ``docs/rules.md``: a table, then every rule's documentation."""
    rows = [
        f"Precision measured on {CORPUS}, labelled by hand on {CORPUS_DATE}: TP / (TP + FP) over every "
        "finding there (debatable ones left aside). A rule is on by default when that precision is at least "
        f"{DEFAULT_PRECISION:.0%} over at least {DEFAULT_SAMPLE} findings labelled true or false; under "
        f"{LINT_PRECISION:.0%} over at least {LINT_SAMPLE}, it is runtime only (out of the linter unless "
        "`--select` names it; `%%aiperf` still runs it and shows it only with the run's evidence); the others "
        "are preview rules. The tuning columns (the repositories the rules were tuned on) decide nothing.",
        "",
        "| code | name | fix | status | held-out precision | held-out findings | held-out labelled (TP/FP/debatable) "
        "| tuning precision | tuning labelled (TP/FP/debatable) | message |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in all_rules().values():
        fix = "yes" if r.fixable else ("runtime" if r.runtime else "")
        static = r.kind == "static"
        prec, found, counts = _cells(measured(r.code) if static else None)
        tprec, _, tcounts = _cells(tuned(r.code) if static else None)
        rows.append(
            f"| [{r.code}](#{r.code.lower()}) | `{r.name}` | {fix} | {r.status} | {prec} | {found} | {counts} "
            f"| {tprec} | {tcounts} | {r.message.replace('|', '/')} |"
        )
    parts = ["\n".join(rows)]
    for r in all_rules().values():
        doc = r.doc.replace("\n## ", "\n#### ").removeprefix("## ")
        parts.append(f"### {r.code}\n\n`{r.name}` — {r.message}\n\n*{precision_note(r)}.*\n\n#### {doc}")
    return "\n\n".join(parts) + "\n"
