"""What the eval measures per case and overall (``metrics.json``), and the review-output seam.

:class:`ReviewOutput` is the part of ``pipeline.ReviewOutcome`` the eval reads, as a protocol,
so metrics, grading and scoring are pure functions testable on hand-built values.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from pydantic import Field

from pr_review.schema.base import Frozen
from pr_review.schema.enums import Lane
from pr_review.schema.eval import Grading
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import ReviewMeta
from pr_review.schema.verdicts import VerdictFile


class ReviewOutput(Protocol):
    """What one review produced (``pipeline.ReviewOutcome`` satisfies this)."""

    @property
    def pack(self) -> EvidencePack:
        """The evidence pack."""
        ...

    @property
    def findings(self) -> tuple[SynthesizedFinding, ...]:
        """Every finding after synthesis, suppressed ones included."""
        ...

    @property
    def verdicts(self) -> VerdictFile | None:
        """Policy verdicts, when policy verifiers ran."""
        ...

    @property
    def meta(self) -> ReviewMeta:
        """Reviewer runs, tokens, cost, wall time."""
        ...

    @property
    def packet_markdown(self) -> str:
        """The reviewer packet."""
        ...


class Flag(StrEnum):
    """The boolean expectations of a case (``expected`` keys other than the lane)."""

    OVERSIZED = "oversized"
    MISSING_DESCRIPTION = "missing_description"
    AI_ASSISTED = "ai_assisted"
    SECRETS = "secrets"


class CaseStatus(StrEnum):
    """Whether the review of a case completed."""

    OK = "ok"
    ERROR = "error"


class LaneCheck(Frozen):
    """Expected lane set against the lane computed; ``met`` None when nothing was expected."""

    expected: tuple[Lane, ...] | None
    actual: Lane | None
    met: bool | None


class FlagCheck(Frozen):
    """One flag expectation against what the review detected."""

    flag: Flag
    expected: bool | None
    detected: bool
    met: bool | None
    evidence: str


class LineCheck(Frozen):
    """Expected defect lines hit by verifier findings, and by surfaced findings."""

    expected: int
    hit_by_verifiers: int
    hit_by_findings: int
    hit_by_either: int


class FactorNote(Frozen):
    """One risk factor of the review, by name and severity (the lane's reasons)."""

    factor: str
    severity: str


class CaseMetrics(Frozen):
    """Deterministic measurements of one case's review (no model involved)."""

    case_id: str
    status: CaseStatus
    error: str | None = None
    lane: LaneCheck
    factors: tuple[FactorNote, ...] = Field(default=(), description="The pack's risk factors.")
    flags: tuple[FlagCheck, ...] = ()
    no_high_findings: bool | None = None
    high_findings: int = 0
    false_positives: int = Field(
        default=0, description="Surfaced high/critical findings on a case that expects none."
    )
    surfaced_findings: int = 0
    suppressed_findings: int = 0
    actionable_findings: int = Field(
        default=0, description="Surfaced findings with a line, a reason and an action."
    )
    findings_outside_diff: int = Field(
        default=0, description="Surfaced findings on files the diff does not touch."
    )
    unexplained_suppressions: int = Field(
        default=0, description="Suppressed findings without a suppression reason."
    )
    lines: LineCheck | None = None
    packet_chars: int = 0
    packet_marker: bool = False
    approval_phrases: tuple[str, ...] = ()
    reviewers: dict[str, str] = Field(default_factory=dict, description="name -> status.")
    wall_ms: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0


class ConfusionRow(Frozen):
    """One row of the lane confusion matrix: the cases that accept ``expected``.

    A case accepting several lanes is one row keyed by its whole accepted set (``yellow|red``),
    not split across rows, so each case is counted once and the row says what was accepted.
    """

    expected: str
    cases: int
    green: int = 0
    yellow: int = 0
    red: int = 0
    error: int = Field(default=0, description="Reviews that did not complete.")


class LaneMetrics(Frozen):
    """How the lane does where it matters (docs/eval.md#lane-figures)."""

    confusion: tuple[ConfusionRow, ...] = ()
    security_cases: int = Field(default=0, description="Cases that accept only red.")
    security_red: int = 0
    security_green: int = 0
    non_red_cases: int = Field(
        default=0, description="Cases with a lane expectation that does not accept red."
    )
    false_reds: int = Field(default=0, description="Non-red cases that got red.")
    neutral_cases: int = Field(default=0, description="Cases that accept only green.")
    neutral_green: int = 0


class Totals(Frozen):
    """Sums and rates over the corpus."""

    cases: int
    errors: int
    lane_expected: int
    lane_met: int
    flags_expected: int
    flags_met: int
    flags_must_not: int = Field(
        default=0, description="Flag expectations that are false (a detection is wrong)."
    )
    flag_false_positives: int = Field(
        default=0, description="Flags detected on cases that expect them false."
    )
    flag_false_positive_cases: tuple[str, ...] = Field(
        default=(), description="`case:flag` of each flag false positive."
    )
    clean_cases: int
    clean_cases_with_false_positives: int
    false_positives: int
    expected_lines: int
    lines_hit_by_verifiers: int
    lines_hit_by_findings: int
    lines_hit_by_either: int
    surfaced_findings: int
    wall_ms_total: int
    wall_ms_median: float
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    cost_usd_median: float | None
    lanes: LaneMetrics = Field(default_factory=LaneMetrics)


class GradingTotals(Frozen):
    """The grader's results over the corpus."""

    cases_graded: int
    expectations_passed: int
    expectations_total: int
    pass_rate: float
    earned: int
    possible: int
    weighted_score: float
    mean_case_score: float


class EvalSummary(Frozen):
    """``metrics.json``: everything measured for one configuration."""

    config: str
    generated_at: str
    corpus: str
    replay: bool
    cases: tuple[CaseMetrics, ...]
    totals: Totals
    grading: tuple[Grading, ...] = ()
    grading_totals: GradingTotals | None = None
