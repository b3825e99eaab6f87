"""The ``synthesis`` section of ``.pr-review/config.yml``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pr_review.evidence.settings import GlobPattern
from pr_review.schema.enums import Severity


class DismissRule(BaseModel):
    """A permanent dismissal: findings in matching files, of one rule or one fingerprint."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    paths: tuple[GlobPattern, ...] = Field(default=("**",), min_length=1)
    rule: str | None = Field(default=None, min_length=1, description="A verifier rule id.")
    fingerprint: str | None = Field(default=None, min_length=8)
    reason: str = Field(min_length=3, max_length=300)

    @model_validator(mode="after")
    def _one_selector(self) -> DismissRule:
        if (self.rule is None) == (self.fingerprint is None):
            raise ValueError("a dismissal names exactly one of `rule` or `fingerprint`")
        return self


class SynthesisSettings(BaseModel):
    """How findings are clustered, suppressed and ranked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line_tolerance: int = Field(
        default=3, ge=0, description="Line ranges this close count as the same place (tile: ±3)."
    )
    near_merge: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="Text similarity at which two findings merge when at the same or a near "
        "place, or when a side has no location (no location is no evidence of being apart).",
    )
    far_merge: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Text similarity at which two findings in the same file merge when "
        "their line ranges are farther apart than the tolerance.",
    )
    ambiguous_band: float = Field(
        default=0.1,
        ge=0.0,
        le=1.0,
        description="Pairs this far below a merge threshold are ambiguous: a model, when "
        "given, settles them in one batched call; without one they stay apart.",
    )
    min_severity: Severity = Field(
        default=Severity.LOW, description="Findings below this severity are suppressed."
    )
    suppress_style: bool = Field(
        default=True, description="Suppress style-only findings (linter territory)."
    )
    min_origins: int = Field(
        default=1,
        ge=1,
        description="Independent origins a finding needs to surface (verifier output is "
        "exempt). 1 surfaces single-reviewer findings; 2 demands one independent confirmation.",
    )
    list_minor: bool = Field(
        default=True,
        description="Keep findings below the bar out of the ranked list and list them in the "
        "packet's collapsed Other checks / Minor notes: verifier-only findings that are not "
        "high severity (or a sure medium), low-severity notes, and one reviewer's non-critical "
        "contextual reasoning below high confidence. false ranks them all.",
    )
    model: str = Field(
        default="claude-haiku-4-5", description="Model that settles ambiguous pairs, if any."
    )
    dismiss: tuple[DismissRule, ...] = Field(
        default=(),
        description="Permanent dismissals: findings matching an entry are never shown (listed "
        "in findings.json with the reason).",
    )
