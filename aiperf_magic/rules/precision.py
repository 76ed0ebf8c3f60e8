"""How often each rule is right on real code, measured, and which rules that puts on by default.

The numbers come from ``benchmarks/corpus.py --write-precision``: the rules run over public
notebooks and scripts of AI and data teaching and example code, and a sample of their findings,
stratified by rule, was labelled by hand (true, false or debatable) by reading the code and the
sizes of the data it handles. A rule is on by default only when it was right at least
:data:`DEFAULT_PRECISION` of the time over at least :data:`DEFAULT_SAMPLE` findings labelled true
or false; every other rule is a *preview* rule: ``aiperf lint --preview`` and ``select=["ALL"]``
run it, and inside ``%%aiperf`` its findings are shown only when the run measured that they
matter.

Generated file: edit the labels, then rerun the benchmark with ``--write-precision``.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PRECISION = 0.9
DEFAULT_SAMPLE = 10


@dataclass(frozen=True)
class Measured:
    """One rule's findings on the corpus, and the hand labels of its sample."""

    findings: int
    tp: int
    fp: int
    debatable: int

    @property
    def labelled(self) -> int:
        return self.tp + self.fp + self.debatable

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP): how often a finding was a real trap, leaving the debatable ones aside."""
        decided = self.tp + self.fp
        return self.tp / decided if decided else None

    @property
    def earns_default(self) -> bool:
        precision = self.precision
        return precision is not None and self.tp + self.fp >= DEFAULT_SAMPLE and precision >= DEFAULT_PRECISION


# BEGIN GENERATED
CORPUS = "39 public repositories of AI/data notebooks and scripts, 2,175 files"
CORPUS_DATE = "2026-12-01"
MEASURED: dict[str, Measured] = {
    "AIP101": Measured(findings=146, tp=22, fp=0, debatable=17),
    "AIP102": Measured(findings=76, tp=12, fp=6, debatable=9),
    "AIP103": Measured(findings=6, tp=1, fp=2, debatable=0),
    "AIP104": Measured(findings=6, tp=0, fp=1, debatable=0),
    "AIP201": Measured(findings=15, tp=4, fp=4, debatable=2),
    "AIP202": Measured(findings=22, tp=0, fp=13, debatable=0),
    "AIP203": Measured(findings=23, tp=11, fp=1, debatable=0),
    "AIP301": Measured(findings=15, tp=1, fp=4, debatable=3),
    "AIP302": Measured(findings=5, tp=0, fp=0, debatable=2),
    "AIP304": Measured(findings=4, tp=0, fp=1, debatable=0),
    "AIP401": Measured(findings=1, tp=0, fp=1, debatable=0),
    "AIP402": Measured(findings=28, tp=9, fp=0, debatable=5),
    "AIP501": Measured(findings=3, tp=3, fp=0, debatable=0),
    "AIP502": Measured(findings=7, tp=7, fp=0, debatable=0),
    "AIP503": Measured(findings=1, tp=0, fp=0, debatable=0),
    "AIP504": Measured(findings=72, tp=22, fp=4, debatable=8),
    "AIP505": Measured(findings=49, tp=11, fp=5, debatable=6),
    "AIP506": Measured(findings=9, tp=0, fp=1, debatable=6),
    "AIP601": Measured(findings=8, tp=4, fp=1, debatable=3),
    "AIP602": Measured(findings=1, tp=0, fp=0, debatable=1),
}
# END GENERATED


def measured(code: str) -> Measured | None:
    return MEASURED.get(code)


def is_default(code: str) -> bool:
    """Whether the rule ``code`` earned its place among the rules run by default."""
    found = MEASURED.get(code)
    return found is not None and found.earns_default
