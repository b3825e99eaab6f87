"""The fresh-eyes reviewer and the selective challenger: one model call each.

Both see only the run's shared prefix (evidence pack + diff) and their own role prompt; the
challenger never receives fresh-eyes' output. Their answers are checked against the diff and
turned into candidate findings; failures become a FAILED :class:`ReviewerRun`, never a crash.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pr_review.errors import ReviewerError
from pr_review.reviewers.anchors import AnchorIndex, to_candidates
from pr_review.reviewers.context import RunContext
from pr_review.reviewers.interface import ModelRequest, StructuredModel, ToolSpec
from pr_review.reviewers.output import (
    ChallengeOutput,
    InjectionReport,
    PolicyOutput,
    ReviewOutput,
)
from pr_review.reviewers.prompts import load_prompt
from pr_review.reviewers.redact import Redactor
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.schema.enums import Confidence, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import CandidateFinding
from pr_review.schema.run import ModelCall, ReviewerRun, ReviewerStatus

REVIEW_TOOL = ToolSpec(
    "submit_review", "Submit the fresh-eyes review of the pull request.", ReviewOutput
)
CHALLENGE_TOOL = ToolSpec(
    "submit_challenge", "Submit the challenger's classified findings.", ChallengeOutput
)
POLICY_TOOL = ToolSpec(
    "submit_policy_verdicts", "Submit the verdict for each repository verifier.", PolicyOutput
)
RUN_TOOLS = (REVIEW_TOOL, CHALLENGE_TOOL, POLICY_TOOL)
"""Sent with every call of a run, so the tool definitions heading the cached prefix match."""


@dataclass(frozen=True)
class Shared:
    """What every reviewer of one run (or one chunk of an oversized run) shares."""

    context: RunContext
    model: StructuredModel
    index: AnchorIndex
    redactor: Redactor
    settings: ReviewerSettings
    clock: Callable[[], float] = time.monotonic


@dataclass(frozen=True)
class ReviewerResult:
    """One reviewer's run record, its candidate findings and its injection reports."""

    run: ReviewerRun
    candidates: tuple[CandidateFinding, ...] = ()
    reports: tuple[InjectionReport, ...] = ()


def request_for(
    shared: Shared, *, purpose: str, model: str, tool: ToolSpec, prompt: str
) -> ModelRequest:
    """A request carrying the run's system text, shared prefix and tool list."""
    return ModelRequest(
        purpose=purpose,
        model=model,
        system=shared.context.system,
        prompt=prompt.replace("{tool}", tool.name),
        shared_prefix=shared.context.shared_prefix,
        unit_prefix=shared.context.unit_prefix,
        tool_name=tool.name,
        tool_description=tool.description,
        max_tokens=shared.settings.max_output_tokens,
        sibling_tools=RUN_TOOLS,
    )


def run_fresh_eyes(shared: Shared, *, name: str = "fresh_eyes") -> ReviewerResult:
    """The fresh-eyes review."""
    model = shared.settings.fresh_eyes_model
    request = request_for(
        shared, purpose=name, model=model, tool=REVIEW_TOOL, prompt=load_prompt("fresh_eyes")
    )
    started = shared.clock()
    try:
        result = shared.model.complete(request, ReviewOutput)
    except ReviewerError as exc:
        return failed(name, model, exc, _ms(shared.clock() - started))
    kept, dropped = to_candidates(
        result.value.findings,
        source=FindingSource.FRESH_EYES,
        origin=name,
        index=shared.index,
        redactor=shared.redactor,
    )
    run = ReviewerRun(
        name=name,
        status=ReviewerStatus.RAN,
        model=model,
        calls=result.calls,
        findings_count=len(kept),
        dropped_count=dropped,
        duration_ms=_ms(shared.clock() - started),
    )
    return ReviewerResult(run, tuple(kept), result.value.injection_attempts)


def run_challenger(shared: Shared, *, trigger: str, name: str = "challenger") -> ReviewerResult:
    """The challenger; weak findings are discarded, not downgraded."""
    model = shared.settings.challenger.model
    request = request_for(
        shared, purpose=name, model=model, tool=CHALLENGE_TOOL, prompt=load_prompt("challenger")
    )
    started = shared.clock()
    try:
        result = shared.model.complete(request, ChallengeOutput)
    except ReviewerError as exc:
        return failed(name, model, exc, _ms(shared.clock() - started), trigger=trigger)
    strong = [f for f in result.value.findings if not is_weak(f.confidence, f.evidence_type)]
    weak = len(result.value.findings) - len(strong)
    kept, dropped = to_candidates(
        strong,
        source=FindingSource.CHALLENGER,
        origin=name,
        index=shared.index,
        redactor=shared.redactor,
    )
    reason = trigger + (f"; {weak} weak finding(s) discarded" if weak else "")
    run = ReviewerRun(
        name=name,
        status=ReviewerStatus.RAN,
        reason=reason,
        model=model,
        calls=result.calls,
        findings_count=len(kept),
        dropped_count=dropped,
        duration_ms=_ms(shared.clock() - started),
    )
    return ReviewerResult(run, tuple(kept), result.value.injection_attempts)


def is_weak(confidence: Confidence, evidence: EvidenceType) -> bool:
    """Below the challenger's bar: low confidence, or reasoning alone short of high confidence."""
    if confidence is Confidence.LOW:
        return True
    return evidence is EvidenceType.CONTEXTUAL_REASONING and confidence is not Confidence.HIGH


def uncertain_severe(candidates: tuple[CandidateFinding, ...]) -> CandidateFinding | None:
    """A high or critical finding held with less than high confidence (a challenger trigger)."""
    for finding in candidates:
        severe = finding.severity in (Severity.HIGH, Severity.CRITICAL)
        if severe and finding.confidence is not Confidence.HIGH:
            return finding
    return None


def failed(
    name: str, model: str, exc: ReviewerError, duration_ms: int, *, trigger: str | None = None
) -> ReviewerResult:
    """A FAILED run that keeps the calls it made and says why."""
    calls: tuple[ModelCall, ...] = getattr(exc, "calls", ())
    reason = str(exc) if trigger is None else f"{trigger}; {exc}"
    run = ReviewerRun(
        name=name,
        status=ReviewerStatus.FAILED,
        reason=reason,
        model=model,
        calls=calls,
        duration_ms=duration_ms,
    )
    return ReviewerResult(run)


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
