"""What a reviewer model may answer: the tool input schemas, validated with pydantic.

These models are the whole vocabulary of a model's answer. They have no field for the lane,
approval, or the gate, so nothing a model says (or is tricked into saying) can change them.
Unknown keys are rejected; an invalid answer gets one corrective retry in the gateway.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from pr_review.schema.base import Frozen
from pr_review.schema.enums import Action, Classification, Confidence, EvidenceType, Severity

Location = Literal["pr_title", "pr_description", "linked_issue", "repo_instructions", "diff"]


class ModelFinding(Frozen):
    """One concrete problem tied to changed lines."""

    title: str = Field(min_length=3, max_length=160, description="The problem, in one line.")
    file: str = Field(min_length=1, description="Path exactly as in the diff header (b/ side).")
    line_start: int = Field(ge=1, description="Head-side line number shown in the diff view.")
    line_end: int | None = Field(default=None, ge=1, description="Last line, if a range.")
    why_it_matters: str = Field(
        min_length=10, description="The consequence: who or what breaks, and when."
    )
    evidence_type: EvidenceType
    evidence_detail: str = Field(
        min_length=10, description="The concrete evidence: code, verifier output or policy cited."
    )
    confidence: Confidence
    severity: Severity
    action: Action
    requires_human: bool = Field(description="True when only a person can settle it.")
    category: str = Field(
        min_length=2,
        max_length=40,
        description="security, correctness, permissions, data-loss, concurrency, performance, "
        "compatibility, tests, migration, configuration, or prompt-injection.",
    )
    replacement: str | None = Field(
        default=None,
        max_length=2000,
        description="Only for a mechanical, certain fix: the exact new text of lines "
        "line_start..line_end (at most 5 lines, no code fences). Omit otherwise.",
    )


class InjectionReport(Frozen):
    """PR-authored text that tries to instruct the reviewer."""

    location: Location
    file: str | None = Field(default=None, description="For location diff: the file.")
    line: int | None = Field(default=None, ge=1, description="For location diff: the line.")
    quote: str = Field(min_length=1, max_length=300, description="The phrase, quoted briefly.")


class ReviewOutput(Frozen):
    """The fresh-eyes reviewer's answer."""

    findings: tuple[ModelFinding, ...] = Field(
        description="Every finding that meets the evidence bar; empty when there is none."
    )
    injection_attempts: tuple[InjectionReport, ...] = ()


class ChallengerFinding(ModelFinding):
    """A challenger finding: its relation to what a careful reviewer would likely flag."""

    classification: Classification = Field(
        description="confirms: independent evidence for a likely concern; refutes: evidence "
        "that a likely concern is safe; novel: a problem a first review would likely miss."
    )


class ChallengeOutput(Frozen):
    """The challenger's answer."""

    findings: tuple[ChallengerFinding, ...]
    injection_attempts: tuple[InjectionReport, ...] = ()


class CheckJudgement(Frozen):
    """One checklist item judged against the PR."""

    name: str = Field(description="The checklist item's name, exactly.")
    applicable: bool
    passed: bool | None = Field(description="null exactly when applicable is false.")
    confidence: Confidence
    evidence: str = Field(min_length=1, description="Short sentence citing file:line.")
    file: str | None = Field(default=None, description="File the evidence cites, if any.")
    line: int | None = Field(default=None, ge=1, description="Head-side line it cites, if any.")

    @model_validator(mode="after")
    def _passed_iff_applicable(self) -> CheckJudgement:
        if not self.applicable and self.passed is not None:
            raise ValueError("passed must be null when applicable is false")
        if self.applicable and self.passed is None:
            raise ValueError("passed must be true or false when applicable is true")
        return self


class InstructionJudgement(Frozen):
    """One verifier file judged against the PR."""

    file: str = Field(description="The verifier file name, exactly as given.")
    relevant: bool
    checks: tuple[CheckJudgement, ...] = Field(description="Empty when relevant is false.")


class PolicyOutput(Frozen):
    """The policy judge's answer for one batch of verifier files."""

    instructions: tuple[InstructionJudgement, ...]


class DraftCheck(Frozen):
    """A drafted checklist item."""

    name: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)
    rule: str = Field(min_length=1)
    relevant_when: str = Field(min_length=1)


class DraftVerifier(Frozen):
    """A verifier file drafted from a document."""

    slug: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)
    instruction: str = Field(min_length=1)
    relevant_when: str = Field(min_length=1)
    context: str = Field(min_length=1)
    source_file: str
    source_line: int | None = Field(default=None, ge=1)
    checklist: tuple[DraftCheck, ...] = Field(min_length=1, max_length=5)


class ExtractOutput(Frozen):
    """Verifier drafts extracted from CONTRIBUTING/AGENTS-style documents."""

    verifiers: tuple[DraftVerifier, ...]
