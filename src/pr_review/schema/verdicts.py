"""Policy verdicts: the per-session verdict file and the aggregate (seed ``000``).

In this project a "session" is one reviewed pull request: ``session_file`` names the PR
(``owner/repo#123@<head sha>``, or ``local:<repo>@<head sha>``) and ``agent`` the reviewer
configuration that judged it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from pr_review.schema.base import Frozen
from pr_review.schema.enums import Confidence


class CheckVerdict(Frozen):
    """One checklist item judged against the PR."""

    name: str
    applicable: bool
    passed: bool | None
    confidence: Confidence
    evidence: str

    @model_validator(mode="after")
    def _passed_null_when_not_applicable(self) -> CheckVerdict:
        if not self.applicable and self.passed is not None:
            raise ValueError("passed must be null when applicable is false")
        if self.applicable and self.passed is None:
            raise ValueError("passed must be true or false when applicable is true")
        return self


class InstructionVerdict(Frozen):
    """One verifier file (instruction) judged against the PR."""

    file: str
    instruction: str
    tile: str
    relevant: bool
    checks: tuple[CheckVerdict, ...] = ()


class VerdictMeta(Frozen):
    """``_meta``: cost and timing of the judge."""

    model: str
    started_at: str
    completed_at: str
    duration_ms: int
    input_tokens: int | None
    output_tokens: int | None
    token_source: Literal["api", "estimated", "unavailable"]
    transcript_chars: int
    checks_count: int


class VerdictFile(Frozen):
    """``verdicts.json``: every policy verifier judged for one PR."""

    session_file: str
    agent: str
    instructions: tuple[InstructionVerdict, ...] = ()
    meta: VerdictMeta = Field(alias="_meta")

    model_config = Frozen.model_config | {"populate_by_name": True}


class ConfidenceBreakdown(Frozen):
    """Counts of check verdicts by confidence."""

    high: int = 0
    medium: int = 0
    low: int = 0


class CheckAggregate(Frozen):
    """One check rolled up over many PRs."""

    applicable_count: int
    passed_count: int
    pass_rate: float
    confidence_breakdown: ConfidenceBreakdown


class InstructionAggregate(Frozen):
    """One instruction rolled up over many PRs."""

    instruction: str
    checks: dict[str, CheckAggregate]


class TileAggregate(Frozen):
    """All instructions of one source (``tile``; here the repository's ``.pr-review/``)."""

    instructions: dict[str, InstructionAggregate]
    overall_pass_rate: float


class CostAggregate(Frozen):
    """Tokens and estimated cost over all rolled-up verdict files."""

    total_input_tokens: int
    total_output_tokens: int
    estimated_cost_usd: float


class VerdictAggregate(Frozen):
    """``verdicts-aggregate.json``."""

    timestamp: str
    sessions_count: int
    tiles: dict[str, TileAggregate]
    cost: CostAggregate
