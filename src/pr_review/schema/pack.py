"""The evidence pack, schema 1.0 (seed ``003``), as pydantic models.

Every field of the seed is here under its seed name and type. Fields we add are marked
"added" in their docstring; consumers that only know the seed can ignore them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pr_review.schema.base import Frozen
from pr_review.schema.enums import (
    ChangeType,
    Confidence,
    FactorSeverity,
    Lane,
    NotReviewedReason,
    TrustMode,
    VerifierSeverity,
    VerifierStatus,
)

SCHEMA_VERSION = "1.0"


class PullRequestInfo(Frozen):
    """``pr``: what the PR says about itself (all of it untrusted data)."""

    number: int = Field(description="PR number; 0 for a local review with no PR.")
    title: str
    description: str
    labels: tuple[str, ...] = ()
    url: str = Field(description="PR web URL; empty for a local review.")
    author: str | None = Field(default=None, description="added: PR author login or name.")
    base_ref: str = Field(default="", description="added: base branch or ref as given.")
    head_ref: str = Field(default="", description="added: head branch or ref as given.")
    base_sha: str = Field(default="", description="added: merge-base commit the diff starts from.")
    head_sha: str = Field(default="", description="added: head commit reviewed.")


class AuthorshipSignal(Frozen):
    """added: one piece of evidence that a commit was AI-assisted."""

    commit: str
    tool: str
    evidence: str


class Authorship(Frozen):
    """``authorship``: AI assistance detected from commits."""

    ai_assisted: bool = False
    ai_tools: tuple[str, ...] = ()
    ai_commit_ratio: float = 0.0
    total_commits: int = 0
    signals: tuple[AuthorshipSignal, ...] = Field(
        default=(), description="added: the trailers/footers/authors that decided it."
    )


class DiffStats(Frozen):
    """``diff.stats``."""

    files_changed: int
    insertions: int
    deletions: int


class TouchedFile(Frozen):
    """One entry of ``diff.touched_files``."""

    path: str
    change_type: ChangeType
    subsystem: str
    insertions: int
    deletions: int
    old_path: str | None = Field(default=None, description="added: previous path of a rename.")
    binary: bool = Field(default=False, description="added: binary content (no line counts).")
    patch_available: bool = Field(
        default=True,
        description="added: false when the source gave no patch for this file "
        "(GitHub omits patches of very large files).",
    )


class SplitSuggestion(Frozen):
    """added: one part of the natural split of an oversized PR."""

    subsystem: str
    files: tuple[str, ...]
    insertions: int
    deletions: int
    estimated_tokens: int


class Oversize(Frozen):
    """added: whether the diff fits what a reviewer model can take whole."""

    oversized: bool = False
    estimated_tokens: int = 0
    threshold_tokens: int = 0
    split: tuple[SplitSuggestion, ...] = ()
    analysis: Literal["full", "budgeted"] = Field(
        default="full",
        description="added: `full` — every content rule ran line by line; `budgeted` — the "
        "diff exceeded `oversize.full_analysis_max_lines`, so content signals (secrets, "
        "access control, migrations) were computed at file level from a bounded number of "
        "candidate lines and the cosmetic/rename analysis was skipped.",
    )


class NotReviewedFile(Frozen):
    """added: a changed file left out of AI review and of the size and lane counts."""

    path: str
    reason: NotReviewedReason
    detail: str = Field(description="The rule that matched (glob, attribute, file name).")


class Diff(Frozen):
    """``diff``."""

    stats: DiffStats
    touched_files: tuple[TouchedFile, ...] = ()
    subsystems: tuple[str, ...] = ()
    raw_diff: str = ""
    oversize: Oversize = Field(default_factory=Oversize, description="added.")
    not_reviewed: tuple[NotReviewedFile, ...] = Field(
        default=(),
        description="added: generated, vendored, lock and excluded files: never sent to a "
        "model, not counted toward size or lane (a lock file still counts as a dependency "
        "change).",
    )


class LinkedIssue(Frozen):
    """One entry of ``context.linked_issues``."""

    number: int
    title: str = ""
    body: str = ""
    labels: tuple[str, ...] = ()
    repository: str | None = Field(
        default=None, description="added: owner/repo when the reference names another repo."
    )
    closing: bool = Field(default=False, description="added: referenced with fixes/closes.")


class RelatedTest(Frozen):
    """One entry of ``context.related_tests``."""

    source_file: str
    test_file: str
    test_exists: bool
    touched_in_pr: bool = Field(default=False, description="added: the PR changed this test.")
    matched_by: Literal["name", "import", "directory"] = Field(
        default="name",
        description="added: how the test was related to the source: its file name names the "
        "source's stem, it imports the source's module (or a package above it), or it sits in "
        "the test directory that mirrors the source's directory.",
    )


class OwnerRule(Frozen):
    """One entry of ``context.owners``."""

    path_pattern: str
    owners: tuple[str, ...]
    files: tuple[str, ...] = Field(default=(), description="added: touched files it owns.")


class Context(Frozen):
    """``context``."""

    linked_issues: tuple[LinkedIssue, ...] = ()
    related_tests: tuple[RelatedTest, ...] = ()
    owners: tuple[OwnerRule, ...] = ()
    repo_instructions: str | None = None


class RiskFactor(Frozen):
    """One entry of ``risk.factors``."""

    factor: str
    files: tuple[str, ...]
    severity: FactorSeverity
    why: str = Field(default="", description="added: the evidence, in words.")


class Risk(Frozen):
    """``risk``."""

    lane: Lane = Lane.GREEN
    confidence: Confidence = Confidence.HIGH
    factors: tuple[RiskFactor, ...] = ()
    override_applied: bool = False
    override_source: str | None = None
    escalated_for_low_confidence: bool = Field(
        default=False, description="added: the lane was raised one step because confidence was low."
    )
    escalated_from_findings: tuple[str, ...] = Field(
        default=(),
        description="added: ids of the surfaced findings that raised the lane to red after "
        "the review (critical, confident, corroborated by an independent source; see "
        "risk.escalation in the configuration). Findings never lower a lane.",
    )

    def why_red(self, limit: int = 300) -> str | None:
        """One line a maintainer can judge in seconds: the first red factor's evidence (its
        file, and the line, what changed and why from its reason); None unless red."""
        if self.lane is not Lane.RED:
            return None
        first = next((f for f in self.factors if f.severity is FactorSeverity.RED), None)
        if first is None:
            if self.escalated_from_findings:
                return "a corroborated critical finding: " + ", ".join(self.escalated_from_findings)
            if self.escalated_for_low_confidence:
                return "changed content could not be read (binary or no patch): confidence low"
            return self.override_source and f"raised by {self.override_source}"
        where = f" in `{first.files[0]}`" if first.files else ""
        more = f" (+{len(first.files) - 1} more files)" if len(first.files) > 1 else ""
        line = f"{first.factor}{where}{more}: {first.why}".strip().rstrip(":")
        return line if len(line) <= limit else line[: limit - 3] + "..."


class VerifierFinding(Frozen):
    """One entry of ``verification.verifiers[].findings``."""

    file: str
    line: int | None
    message: str
    severity: VerifierSeverity
    rule_id: str | None = Field(default=None, description="added: the tool's rule code.")
    end_line: int | None = Field(default=None, description="added.")
    new_in_head: bool = Field(
        default=True,
        description="added: false never reaches the pack; kept for clarity of the contract.",
    )
    replacement: str | None = Field(
        default=None,
        description="added: the tool's own safe fix, as the new text of the finding's line "
        "(empty: the line is deleted).",
    )
    count: int = Field(
        default=1,
        ge=1,
        description="added: how many hits of this rule this finding stands for. A flood (one "
        "rule hit many times in one PR) is one finding at its first place; the message names "
        "the first places and the count.",
    )


class VerifierRun(Frozen):
    """One entry of ``verification.verifiers``."""

    name: str
    status: VerifierStatus
    findings: tuple[VerifierFinding, ...] = ()
    duration_ms: int = 0
    reason: str | None = Field(
        default=None, description="added: why it was skipped or timed out, or how it failed."
    )
    files_checked: tuple[str, ...] = Field(default=(), description="added.")


class VerificationSummary(Frozen):
    """``verification.summary``: skipped counts timeouts too, as the seed's tile does."""

    passed: int = 0
    failed: int = 0
    warnings: int = 0
    skipped: int = 0


class Verification(Frozen):
    """``verification``."""

    verifiers: tuple[VerifierRun, ...] = ()
    summary: VerificationSummary = Field(default_factory=VerificationSummary)
    trust_mode: TrustMode = Field(
        default=TrustMode.TRUSTED,
        description="added: whether repository-declared commands were allowed to run.",
    )


class Hotspot(Frozen):
    """One entry of ``hotspots``."""

    file: str
    line_start: int
    line_end: int
    category: str
    why: str
    risk_contributing: bool


class MissingArtifact(Frozen):
    """One entry of ``missing_artifacts``."""

    artifact: str
    why_required: str
    suggested_location: str
    required: bool


class Blocker(Frozen):
    """added: something that stops part of the review (e.g. an oversized diff)."""

    kind: str
    message: str
    recommendation: str


class EvidencePack(Frozen):
    """The evidence pack: the single input of every reviewer."""

    schema_version: str = SCHEMA_VERSION
    generated_at: str = Field(description="ISO-8601 timestamp.")
    wall_clock_ms: int
    pr: PullRequestInfo
    authorship: Authorship = Field(default_factory=Authorship)
    diff: Diff
    context: Context = Field(default_factory=Context)
    risk: Risk = Field(default_factory=Risk)
    verification: Verification = Field(default_factory=Verification)
    hotspots: tuple[Hotspot, ...] = ()
    missing_artifacts: tuple[MissingArtifact, ...] = ()
    blockers: tuple[Blocker, ...] = Field(default=(), description="added.")
