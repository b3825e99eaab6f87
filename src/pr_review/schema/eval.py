"""Evaluation contracts: grading, blind comparison, analysis (seed ``004``) and scorecard (``001``).

Every seed field is here under its seed name and type. Fields we add are marked "added" in
their description; a consumer that only knows the seed can ignore them. The deterministic
metrics files (``metrics.json``) are ours alone.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from pr_review.schema.base import Frozen

# ---------------------------------------------------------------- grading.json (seed 004)


class GradedBy(StrEnum):
    """added: who decided an expectation."""

    DETERMINISTIC = "deterministic"
    MODEL = "model"
    NOT_GRADED = "not_graded"


class GradedExpectation(Frozen):
    """One assertion (a case criterion) judged pass/fail, with the evidence."""

    text: str
    passed: bool
    evidence: str
    description: str = Field(default="", description="added: the criterion's description.")
    max_score: int = Field(default=0, description="added: the criterion's weight.")
    graded_by: GradedBy = Field(default=GradedBy.MODEL, description="added.")


class GradingSummary(Frozen):
    """Counts over the expectations."""

    passed: int
    failed: int
    total: int
    pass_rate: float


class ClaimType(StrEnum):
    """Kinds of implicit claim the grader extracts."""

    FACTUAL = "factual"
    PROCESS = "process"
    QUALITY = "quality"


class Claim(Frozen):
    """An implicit claim found in the review output, and whether it holds."""

    claim: str
    type: ClaimType
    verified: bool
    evidence: str


class FeedbackSuggestion(Frozen):
    """A weak or missing assertion, and why."""

    assertion: str
    reason: str


class EvalFeedback(Frozen):
    """The grader's critique of the assertions themselves."""

    suggestions: tuple[FeedbackSuggestion, ...] = ()
    overall: str = ""


class WeightedScore(Frozen):
    """added: the upstream checklist score, ``max_score`` summed over passed items."""

    earned: int
    possible: int
    ratio: float


class Grading(Frozen):
    """``grading.json`` for one case."""

    expectations: tuple[GradedExpectation, ...]
    summary: GradingSummary
    claims: tuple[Claim, ...] = ()
    eval_feedback: EvalFeedback = Field(default_factory=EvalFeedback)
    case_id: str = Field(default="", description="added.")
    weighted: WeightedScore | None = Field(default=None, description="added.")
    model_status: str = Field(
        default="",
        description="added: 'ran', or why the model part of grading did not run "
        "(no model, no recording, invalid output).",
    )


# ------------------------------------------------------------- comparison.json (seed 004)

Side = Literal["A", "B"]
Winner = Literal["A", "B", "TIE"]


class RubricScores(Frozen):
    """One output's rubric: criterion -> 1..5, and the derived scores."""

    content: dict[str, int]
    structure: dict[str, int]
    content_score: float
    structure_score: float
    overall_score: float


class OutputQuality(Frozen):
    """One output's overall quality judgement."""

    score: float
    strengths: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()


class ExpectationResult(Frozen):
    """One output's assertion results (secondary signal)."""

    passed: int
    total: int
    pass_rate: float


class Comparison(Frozen):
    """``comparison.json`` for one case."""

    winner: Winner
    reasoning: str
    rubric: dict[Side, RubricScores]
    output_quality: dict[Side, OutputQuality]
    expectation_results: dict[Side, ExpectationResult] | None = None
    case_id: str = Field(default="", description="added.")
    order: dict[Side, str] = Field(
        default_factory=dict,
        description="added: which configuration was shown as A and as B (randomized).",
    )
    seed: int | None = Field(default=None, description="added: the RNG seed of the order.")
    winner_config: str | None = Field(
        default=None, description="added: the winning configuration's name; None for a tie."
    )


# --------------------------------------------------------------- analysis.json (seed 004)


class ComparisonSummary(Frozen):
    """Who won, and where each side's instructions live."""

    winner: Winner
    winner_skill: str
    loser_skill: str


class SuggestionPriority(StrEnum):
    """How much a suggestion would change the outcome."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class SuggestionCategory(StrEnum):
    """What a suggestion changes."""

    INSTRUCTIONS = "instructions"
    TOOLS = "tools"
    EXAMPLES = "examples"
    ERROR_HANDLING = "error_handling"
    STRUCTURE = "structure"
    REFERENCES = "references"


class ImprovementSuggestion(Frozen):
    """One prioritized change for the losing configuration."""

    priority: SuggestionPriority
    category: SuggestionCategory
    suggestion: str
    expected_impact: str


class Analysis(Frozen):
    """Post-comparison analysis: why the winner won."""

    comparison_summary: ComparisonSummary
    winner_strengths: tuple[str, ...] = ()
    loser_weaknesses: tuple[str, ...] = ()
    improvement_suggestions: tuple[ImprovementSuggestion, ...] = ()
    case_id: str = Field(default="", description="added.")


# ------------------------------------------------------------------ scorecard (seed 001)


class DimensionScore(Frozen):
    """One of the seven dimensions."""

    score: float = Field(ge=1.0, le=10.0)
    weight: float
    justification: str


class Dimensions(Frozen):
    """The seven weighted dimensions, in the seed's order."""

    correctness: DimensionScore
    completeness: DimensionScore
    adherence: DimensionScore
    actionability: DimensionScore
    efficiency: DimensionScore
    safety: DimensionScore
    consistency: DimensionScore


class Scorecard(Frozen):
    """``scores/<config>-<timestamp>.json``."""

    skill: str
    timestamp: str
    dimensions: Dimensions
    composite: float
    grade: str
    critical_issues: tuple[str, ...] = Field(default=(), alias="criticalIssues")
    recommendations: tuple[str, ...] = ()
    rubric_used: str = Field(alias="rubricUsed")
    transcript_path: str = Field(alias="transcriptPath")

    model_config = Frozen.model_config | {"populate_by_name": True}
