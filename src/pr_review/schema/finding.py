"""Candidate and synthesized findings (seed ``003``)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from pr_review.schema.base import Frozen
from pr_review.schema.enums import (
    Action,
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
)


class Evidence(Frozen):
    """Why a finding is believed."""

    type: EvidenceType
    detail: str


class CandidateFinding(Frozen):
    """What a reviewer or verifier reports, before synthesis."""

    finding_id: str
    source: FindingSource
    title: str
    file: str
    line_start: int | None
    line_end: int | None
    hunk: str | None = None
    why_it_matters: str
    evidence: Evidence
    confidence: Confidence
    severity: Severity
    action: Action
    requires_human: bool = False
    origin: str = Field(
        default="",
        description="added: the specific producer (fresh_eyes, challenger, ruff, bandit, "
        "policy:<file>); independence for corroboration is judged on it.",
    )
    classification: Classification | None = Field(
        default=None, description="added: a challenger finding's confirms/refutes/novel."
    )
    category: str | None = Field(default=None, description="added: e.g. security, style.")
    rule_id: str | None = Field(default=None, description="added: a verifier's rule code.")
    fingerprint: str | None = Field(
        default=None,
        description="added: stable identity across reviews (file, cited code, category).",
    )
    replacement: str | None = Field(
        default=None,
        description="added: a reviewer's exact new text for line_start..line_end when the fix "
        "is mechanical (shown as a suggestion only where allowed).",
    )

    @property
    def producer(self) -> str:
        """The origin, or the source when no origin was given."""
        return self.origin or self.source.value


class ReviewStatus(StrEnum):
    """added: a finding's state relative to the previous review of the same PR."""

    NEW = "new"
    STILL_OPEN = "still_open"
    RESOLVED = "resolved"


class SynthesizedFinding(CandidateFinding):
    """A candidate after synthesis: the five seed fields plus our bookkeeping."""

    corroborated_by: tuple[str, ...] = ()
    contested_by: tuple[str, ...] = ()
    merged_confidence: Confidence
    suppressed: bool = False
    suppression_reason: str | None = None
    merged_ids: tuple[str, ...] = Field(
        default=(), description="added: ids of the other findings merged into this one."
    )
    dedup_strategy: str | None = Field(
        default=None,
        description="added: exact_match, semantic_overlap, corroboration or conflict.",
    )
    positions: tuple[str, ...] = Field(
        default=(), description="added: for contested findings, each side's position."
    )
    locations: tuple[str, ...] = Field(
        default=(),
        description="added: other places (path:start-end) that merged members cite when a "
        "cluster spans several places (one root cause, several locations).",
    )
    minor: bool = Field(
        default=False,
        description="added: below the bar for the ranked list (a verifier-only finding "
        "that is neither high severity nor a sure medium; a low-severity note; a single "
        "reviewer's contextual reasoning); suppressed, and listed in the packet's collapsed "
        "'Other checks' (verifier) or 'Minor notes' (reviewer) table.",
    )
    rank_score: float | None = Field(default=None, description="added: ranking score.")
    rank: int | None = Field(default=None, description="added: 1-based rank when surfaced.")
    review_status: ReviewStatus | None = Field(default=None, description="added.")
