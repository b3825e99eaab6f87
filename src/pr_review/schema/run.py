"""What happened in a review run besides findings: reviewer calls, cost, timing.

Filled by the reviewer stage, rendered by the packet, published by the Action.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from pr_review.schema.base import Frozen


class ReviewerStatus(StrEnum):
    """How one reviewer ended."""

    RAN = "ran"
    SKIPPED = "skipped"
    FAILED = "failed"


class ModelCall(Frozen):
    """One Messages API call, as recorded by the model gateway."""

    reviewer: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    duration_ms: int = 0
    cost_usd: float | None = None
    """None when the model has no known price (we do not guess)."""
    attempt: int = 1
    """2 for the one corrective retry after invalid output."""
    ok: bool = True
    error: str | None = None


class ReviewerRun(Frozen):
    """One reviewer (fresh-eyes, challenger, policy verifiers, ...) in one review."""

    name: str
    status: ReviewerStatus
    reason: str | None = None
    """Why it was skipped or how it failed; for a run, what triggered it."""
    model: str | None = None
    calls: tuple[ModelCall, ...] = ()
    findings_count: int = 0
    dropped_count: int = 0
    """Findings dropped because they pointed at files or lines not in the diff."""
    duration_ms: int = 0


class LeftOutFile(Frozen):
    """A file with a patch that no model saw because of the token budget or a cost cap."""

    path: str
    why: str


class UnitEstimate(Frozen):
    """The pre-call estimate of one review unit (a PR reviewed in units)."""

    unit: str
    files: int
    calls: int
    estimated_input_tokens: int
    estimated_cost_usd: float | None = None


class ReviewMeta(Frozen):
    """Everything the packet's metadata section says about the run."""

    reviewers: tuple[ReviewerRun, ...] = ()
    wall_clock_ms: int = 0
    context_isolation: str = Field(
        default="Each reviewer saw only the evidence pack and the raw diff, in a separate "
        "model call; no reviewer saw another's output.",
    )
    files_not_reviewed: tuple[str, ...] = ()
    """Files no AI reviewer saw (oversized PR, or no patch from the source)."""
    left_out: tuple[LeftOutFile, ...] = ()
    """Files left out for the token budget or a cost cap, with why (also in the list above)."""
    review_units: tuple[str, ...] = ()
    """The units a large or incremental review was split into (empty: the whole PR at once)."""
    estimated_input_tokens: int = 0
    """Input tokens of the planned reviewer calls, estimated before calling."""
    estimated_cost_usd: float | None = None
    """USD of the planned reviewer calls, estimated before calling (None: no known price)."""
    unit_estimates: tuple[UnitEstimate, ...] = ()
    """Each review unit's own estimate, when the PR was reviewed in units."""
    rereview: str = ""
    """What an incremental re-review sent again, or why it was a full review."""
    trust_mode: str = "trusted"

    @property
    def total_cost_usd(self) -> float | None:
        """Sum of known call costs; None when any call had no known price."""
        costs = [c.cost_usd for r in self.reviewers for c in r.calls]
        if any(c is None for c in costs):
            return None
        return sum(c for c in costs if c is not None)

    @property
    def total_tokens(self) -> tuple[int, int]:
        """(input incl. cache, output) tokens over all calls."""
        calls = [c for r in self.reviewers for c in r.calls]
        inp = sum(
            c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens
            for c in calls
        )
        return inp, sum(c.output_tokens for c in calls)
