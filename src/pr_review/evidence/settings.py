"""Configuration of the evidence stage (``subsystems``, ``risk``, ``artifacts``, ``oversize``)."""

from __future__ import annotations

from typing import Annotated, Literal, Protocol

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pr_review.evidence.globs import compile_glob
from pr_review.schema.enums import Lane


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _valid_glob(pattern: str) -> str:
    """Reject a glob that cannot be compiled, so the config error names its key."""
    compile_glob(pattern)
    return pattern


GlobPattern = Annotated[str, AfterValidator(_valid_glob)]
"""A glob pattern validated at configuration load (``**`` allowed)."""
SubsystemGlobs = dict[str, tuple[GlobPattern, ...]]
"""Type of the top-level ``subsystems`` key: name -> globs, first match wins."""


class RiskOverride(_Section):
    """A path rule that raises the lane of any PR touching matching files."""

    paths: tuple[GlobPattern, ...] = Field(
        min_length=1, description="Glob patterns (``**`` allowed)."
    )
    lane: Literal["yellow", "red"] = Field(description="Lane to raise to: yellow or red.")
    reason: str = Field(default="", description="Shown as the factor's explanation.")

    @property
    def raise_to(self) -> Lane:
        """The lane this rule raises matching PRs to."""
        return Lane(self.lane)


class FactorCap(_Section):
    """A risk factor this repository holds to yellow at most (its maintainers' judgement,
    read from the base branch like all configuration: a PR cannot cap its own factors)."""

    factor: str = Field(
        description="A risk factor's name, as the packet shows it (docs/configuration.md lists "
        "them)."
    )
    paths: tuple[GlobPattern, ...] = Field(
        default=("**",),
        min_length=1,
        description="Glob patterns; the cap applies when every file of the factor matches one.",
    )
    reason: str = Field(min_length=1, description="Why: shown beside the factor.")


class EscalationSettings(_Section):
    """When the reviewers' findings raise the lane to red (they can never lower it)."""

    enabled: bool = Field(
        default=True, description="Raise the lane from corroborated critical findings."
    )
    min_severity: Literal["critical", "high"] = Field(
        default="critical", description="Lowest finding severity that can raise the lane."
    )
    min_confidence: Literal["high", "medium"] = Field(
        default="high", description="Lowest merged confidence that can raise the lane."
    )
    categories: tuple[str, ...] = Field(
        default=("security", "permissions", "data-loss"),
        min_length=1,
        description="Finding categories that can raise the lane.",
    )
    min_sources: int = Field(
        default=2,
        ge=2,
        description="Independent sources (reviewers, verifiers) that must report the finding.",
    )


class RiskSettings(_Section):
    """How the lane is decided beyond the built-in signals."""

    overrides: tuple[RiskOverride, ...] = ()
    yellow_at_most: tuple[FactorCap, ...] = ()
    large_diff_lines: int = Field(
        default=500, ge=1, description="Changed lines above which size is a moderate factor."
    )
    very_large_diff_lines: int = Field(
        default=1000, ge=1, description="Changed lines above which size is a red factor."
    )
    multi_subsystem_count: int = Field(
        default=3, ge=2, description="Distinct code subsystems at which the PR is red."
    )
    body_override: bool = Field(
        default=True, description="Honour `risk: red|yellow` in the PR body (raise only)."
    )
    escalation: EscalationSettings = Field(
        default_factory=EscalationSettings,
        description="Raise the lane to red from corroborated critical reviewer findings.",
    )


class ArtifactRule(_Section):
    """One required artifact for a lane."""

    artifact: str
    check: str = Field(
        description="has_intent, has_tests, has_changelog, has_migration_guidance, "
        "has_rollout_note or has_security_note."
    )
    required: bool = True
    why_required: str = ""


class ArtifactSettings(_Section):
    """Per-lane artifact rules; a lane listed here replaces that lane's defaults."""

    green: tuple[ArtifactRule, ...] | None = None
    yellow: tuple[ArtifactRule, ...] | None = None
    red: tuple[ArtifactRule, ...] | None = None


class OversizeSettings(_Section):
    """When a diff is too large for a reviewer model to take whole."""

    max_diff_tokens: int = Field(
        default=120_000,
        ge=1000,
        description="Estimated tokens of the raw diff above which "
        "AI review is blocked and a split is recommended.",
    )
    max_changed_lines: int = Field(
        default=1000,
        ge=1,
        description="Changed lines (insertions + deletions) above which one "
        "review cannot cover the PR well; AI review is blocked and a split is recommended.",
    )
    chars_per_token: float = Field(
        default=3.5, gt=0, description="Characters per token used for the estimate."
    )
    full_analysis_max_lines: int = Field(
        default=20_000,
        ge=1,
        description="Changed lines above which the evidence stage runs its budgeted mode "
        "(GitHub's own diff limit): no cosmetic/rename analysis, content signals computed at "
        "file level for secrets, access control and migrations only.",
    )


class PathSettings(_Section):
    """Paths the AI reviewers never see (generated or vendored code the detector misses)."""

    exclude: tuple[GlobPattern, ...] = Field(
        default=(),
        description="Globs of changed files left out of AI review and of the size and lane "
        "counts; listed in the packet as not reviewed. Verifiers still scan them.",
    )


class InstructionSettings(_Section):
    """How repository instructions are gathered into the pack."""

    max_chars: int = Field(
        default=20_000, ge=0, description="Cap on the concatenated instructions."
    )


class EvidenceConfig(Protocol):
    """The sections of the repository configuration the evidence stage reads.

    :class:`pr_review.config.Config` has them all; the stage names only what it reads, so the
    configuration (which composes every stage's section) depends on the stages and never the
    other way round.
    """

    @property
    def subsystems(self) -> SubsystemGlobs: ...
    @property
    def risk(self) -> RiskSettings: ...
    @property
    def artifacts(self) -> ArtifactSettings: ...
    @property
    def oversize(self) -> OversizeSettings: ...
    @property
    def paths(self) -> PathSettings: ...
    @property
    def instructions(self) -> InstructionSettings: ...
