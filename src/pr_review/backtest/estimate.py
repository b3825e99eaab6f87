"""What a ``--with-model`` backtest would cost, stated before any model is called.

:class:`EstimatingModel` stands in for the model during a dry run of the review: it answers
no request (each is refused as unavailable, so the review records the reviewer as not run
and goes on), and counts what each request would have sent: the system text, the shared
prefix and the prompt, in tokens at the reviewers' planning rate
(:data:`pr_review.reviewers.plan.CHARS_PER_TOKEN`), priced with the configuration's price
table for the request's own model. Output tokens cannot be known before the model answers, so
each call is assumed to return the planner's :data:`ASSUMED_OUTPUT_TOKENS`. The review's own
plan (units, cost caps, bot PRs) runs as in a real review, so only requests it would really
make are counted.
Input is priced without the prompt-cache discount: the estimate is an upper bound on input.
Only the requests the deterministic evidence starts are counted (fresh-eyes, the challenger
when the lane calls for it, policy verifiers); a synthesis tie-break that depends on the
model's own findings is not.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pr_review.reviewers.interface import ModelRequest, ModelResult, ModelUnavailable, T
from pr_review.reviewers.plan import CHARS_PER_TOKEN, ESTIMATED_OUTPUT_TOKENS
from pr_review.reviewers.settings import ModelPrice, call_cost, price_for

ASSUMED_OUTPUT_TOKENS = ESTIMATED_OUTPUT_TOKENS
"""Output tokens assumed per call: the reviewers' own pre-call estimate uses the same."""


@dataclass(frozen=True)
class CostEstimate:
    """The sum over every counted request."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_models: tuple[str, ...] = ()
    """Models without a price in the table: their calls are counted, not priced."""

    def describe(self) -> str:
        """One line for the user."""
        text = (
            f"estimated cost ${self.cost_usd:.2f}: {self.calls} model calls, about "
            f"{self.input_tokens:,} input tokens (no cache discount) and {self.output_tokens:,} "
            f"output tokens ({ASSUMED_OUTPUT_TOKENS:,} assumed per call)"
        )
        if self.unpriced_models:
            text += f"; no price for {', '.join(self.unpriced_models)} (not included)"
        return text


class CostMeter:
    """Thread-safe running total of estimated calls."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._total = CostEstimate()

    def add(self, *, input_tokens: int, model: str, price: ModelPrice | None) -> None:
        """Count one request."""
        cost = call_cost(
            price,
            input_tokens=input_tokens,
            output_tokens=ASSUMED_OUTPUT_TOKENS,
            cache_creation_input_tokens=0,
            cache_read_input_tokens=0,
        )
        with self._lock:
            t = self._total
            unpriced = t.unpriced_models
            if cost is None and model not in unpriced:
                unpriced = (*unpriced, model)
            self._total = CostEstimate(
                calls=t.calls + 1,
                input_tokens=t.input_tokens + input_tokens,
                output_tokens=t.output_tokens + ASSUMED_OUTPUT_TOKENS,
                cost_usd=t.cost_usd + (cost or 0.0),
                unpriced_models=unpriced,
            )

    @property
    def total(self) -> CostEstimate:
        """The estimate so far."""
        with self._lock:
            return self._total


class EstimatingModel:
    """A :class:`~pr_review.reviewers.interface.StructuredModel` that only counts requests."""

    def __init__(self, meter: CostMeter, prices: dict[str, ModelPrice]) -> None:
        self._meter = meter
        self._prices = prices

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """Count the request, then refuse it: a dry run sends nothing."""
        chars = len(request.system) + len(request.shared_prefix or "") + len(request.prompt)
        self._meter.add(
            input_tokens=int(chars / CHARS_PER_TOKEN) + 1 if chars else 0,
            model=request.model,
            price=price_for(request.model, self._prices),
        )
        raise ModelUnavailable("cost estimate only: nothing is sent in a dry run")
