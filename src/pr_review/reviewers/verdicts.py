"""The policy verdict file for one PR (seed ``000``), from the judged batches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pr_review.reviewers.policy_judge import PolicyBatchResult
from pr_review.schema.run import ReviewerStatus
from pr_review.schema.verdicts import VerdictFile, VerdictMeta

AGENT = "pr-review-guardrails/policy-verifiers"


def build_verdict_file(
    batches: Sequence[PolicyBatchResult],
    *,
    session_id: str,
    model: str,
    started_at: datetime,
    completed_at: datetime,
    duration_ms: int,
    transcript_chars: int,
) -> VerdictFile | None:
    """Every judged instruction in file-name order; None when no batch was judged."""
    judged = [b for b in batches if b.result.run.status is ReviewerStatus.RAN]
    if not judged:
        return None
    instructions = sorted((v for b in judged for v in b.verdicts), key=lambda v: v.file)
    calls = [c for b in judged for c in b.result.run.calls]
    meta = VerdictMeta(
        model=model,
        started_at=_iso(started_at),
        completed_at=_iso(completed_at),
        duration_ms=duration_ms,
        input_tokens=sum(
            c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens
            for c in calls
        ),
        output_tokens=sum(c.output_tokens for c in calls),
        token_source="api" if calls else "unavailable",
        transcript_chars=transcript_chars,
        checks_count=sum(len(v.checks) for v in instructions),
    )
    return VerdictFile.model_validate(
        {
            "session_file": session_id,
            "agent": AGENT,
            "instructions": instructions,
            "_meta": meta,
        }
    )


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")
