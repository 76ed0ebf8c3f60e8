"""How often each rule is right on real code it was not tuned on, measured, and what that decides.

The numbers come from ``benchmarks/corpus.py --write-precision``: the rules run over public
notebooks and scripts of AI and data teaching and example code, split by repository into the
repositories the rules were tuned on and repositories held out (nobody working on the rules had
read them), and every finding on the held-out ones was labelled by hand (true, false or debatable)
by reading the code and the sizes of the data it handles. Only the held-out part decides
(:data:`MEASURED`; :data:`TUNED` is shown beside it and decides nothing):

- a rule is on by default when it was right at least :data:`DEFAULT_PRECISION` of the time over at
  least :data:`DEFAULT_SAMPLE` held-out findings labelled true or false;
- a rule right less than :data:`LINT_PRECISION` of the time over at least :data:`LINT_SAMPLE` such
  findings leaves the lint: it is *runtime only* (``aiperf lint`` runs it only when ``--select``
  names its exact code; ``%%aiperf`` still runs it and shows its finding only when the run measured
  that it matters; the codes in :data:`FOUND_FROM_RUN` are also found from the run itself);
- every other rule is a *preview* rule: ``aiperf lint --preview`` and ``select=["ALL"]`` run it,
  and inside ``%%aiperf`` its findings are shown only when the run measured that they matter.

Generated block: edit the labels, then rerun the benchmark with ``--write-precision``.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PRECISION = 0.9
DEFAULT_SAMPLE = 10
LINT_PRECISION = 0.5
LINT_SAMPLE = 5

# Codes that ``%%aiperf`` also reports from where the run spent its time (``rules/from_run``),
# whatever the syntax: a runtime-only rule among them is merged into those findings.
FOUND_FROM_RUN = frozenset({"AIP101", "AIP201", "AIP202", "AIP301", "AIP302", "AIP401", "AIP402", "AIP502", "AIP506"})


@dataclass(frozen=True)
class Measured:
    """One rule's findings on the corpus, and their hand labels."""

    findings: int
    tp: int
    fp: int
    debatable: int

    @property
    def labelled(self) -> int:
        return self.tp + self.fp + self.debatable

    @property
    def decided(self) -> int:
        """Findings labelled true or false."""
        return self.tp + self.fp

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP): how often a finding was a real trap, leaving the debatable ones aside."""
        return self.tp / self.decided if self.decided else None

    @property
    def earns_default(self) -> bool:
        precision = self.precision
        return precision is not None and self.decided >= DEFAULT_SAMPLE and precision >= DEFAULT_PRECISION

    @property
    def leaves_lint(self) -> bool:
        """Wrong more often than right over enough findings: the rule is runtime only."""
        precision = self.precision
        return precision is not None and self.decided >= LINT_SAMPLE and precision < LINT_PRECISION


# BEGIN GENERATED
CORPUS = (
    "17 public repositories of AI/data notebooks and scripts, 1,320 files, none of them read "
    "while the rules were tuned on 39 others"
)
CORPUS_DATE = "2026-12-02"
MEASURED: dict[str, Measured] = {
    "AIP101": Measured(findings=65, tp=43, fp=8, debatable=14),
    "AIP102": Measured(findings=84, tp=31, fp=11, debatable=42),
    "AIP103": Measured(findings=17, tp=5, fp=11, debatable=1),
    "AIP104": Measured(findings=2, tp=2, fp=0, debatable=0),
    "AIP201": Measured(findings=34, tp=19, fp=13, debatable=2),
    "AIP202": Measured(findings=12, tp=1, fp=11, debatable=0),
    "AIP203": Measured(findings=7, tp=0, fp=7, debatable=0),
    "AIP301": Measured(findings=10, tp=0, fp=10, debatable=0),
    "AIP302": Measured(findings=5, tp=0, fp=2, debatable=3),
    "AIP304": Measured(findings=5, tp=1, fp=4, debatable=0),
    "AIP401": Measured(findings=2, tp=2, fp=0, debatable=0),
    "AIP402": Measured(findings=3, tp=0, fp=2, debatable=1),
    "AIP501": Measured(findings=5, tp=0, fp=5, debatable=0),
    "AIP502": Measured(findings=28, tp=27, fp=1, debatable=0),
    "AIP503": Measured(findings=0, tp=0, fp=0, debatable=0),
    "AIP504": Measured(findings=74, tp=42, fp=23, debatable=9),
    "AIP505": Measured(findings=48, tp=31, fp=9, debatable=8),
    "AIP506": Measured(findings=13, tp=0, fp=2, debatable=11),
    "AIP601": Measured(findings=0, tp=0, fp=0, debatable=0),
    "AIP602": Measured(findings=0, tp=0, fp=0, debatable=0),
}
TUNED: dict[str, Measured] = {
    "AIP101": Measured(findings=251, tp=22, fp=0, debatable=17),
    "AIP102": Measured(findings=150, tp=12, fp=6, debatable=9),
    "AIP103": Measured(findings=6, tp=1, fp=2, debatable=0),
    "AIP104": Measured(findings=6, tp=0, fp=1, debatable=0),
    "AIP201": Measured(findings=21, tp=4, fp=4, debatable=2),
    "AIP202": Measured(findings=22, tp=0, fp=13, debatable=0),
    "AIP203": Measured(findings=23, tp=11, fp=1, debatable=0),
    "AIP301": Measured(findings=15, tp=1, fp=4, debatable=3),
    "AIP302": Measured(findings=7, tp=0, fp=0, debatable=2),
    "AIP304": Measured(findings=4, tp=0, fp=1, debatable=0),
    "AIP401": Measured(findings=1, tp=0, fp=1, debatable=0),
    "AIP402": Measured(findings=27, tp=9, fp=0, debatable=5),
    "AIP501": Measured(findings=3, tp=3, fp=0, debatable=0),
    "AIP502": Measured(findings=7, tp=7, fp=0, debatable=0),
    "AIP503": Measured(findings=1, tp=0, fp=0, debatable=0),
    "AIP504": Measured(findings=116, tp=22, fp=4, debatable=8),
    "AIP505": Measured(findings=58, tp=11, fp=5, debatable=6),
    "AIP506": Measured(findings=40, tp=0, fp=1, debatable=6),
    "AIP601": Measured(findings=8, tp=4, fp=1, debatable=3),
    "AIP602": Measured(findings=1, tp=0, fp=0, debatable=1),
}
# END GENERATED


def measured(code: str) -> Measured | None:
    """The rule's numbers on the held-out repositories (those that decide its status)."""
    return MEASURED.get(code)


def tuned(code: str) -> Measured | None:
    """The rule's numbers on the repositories it was tuned on (shown, never deciding)."""
    return TUNED.get(code)


def is_default(code: str) -> bool:
    """Whether the rule ``code`` earned its place among the rules run by default."""
    found = MEASURED.get(code)
    return found is not None and found.earns_default


def is_runtime_only(code: str) -> bool:
    """Whether the rule ``code`` left the lint: measured wrong more often than right on held-out code."""
    found = MEASURED.get(code)
    return found is not None and found.leaves_lint
