"""Calls after the reviewers' stay under the run's cost caps.

The review units are planned within ``reviewers.max_input_tokens`` and
``reviewers.max_cost_usd`` before any call (:mod:`pr_review.reviewers.plan`). Calls made
after them (the synthesis tie-break) go through :class:`CappedModel`: it estimates each
request with the same constants, and refuses, as an unavailable model, one that would take
the run's spend past a cap. Its caller records the refusal as a note and goes on without it.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from pr_review.reviewers.interface import (
    ModelRequest,
    ModelResult,
    ModelUnavailable,
    StructuredModel,
)
from pr_review.reviewers.plan import estimate_call
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.schema.run import ModelCall

T = TypeVar("T", bound=BaseModel)


def spent(calls: tuple[ModelCall, ...]) -> tuple[int, float]:
    """Input tokens (cache reads and writes included) and USD that ``calls`` took."""
    tokens = sum(
        c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens for c in calls
    )
    return tokens, sum(c.cost_usd or 0.0 for c in calls)


class CappedModel:
    """A :class:`StructuredModel` that keeps the run within its caps."""

    def __init__(
        self, inner: StructuredModel, settings: ReviewerSettings, calls: tuple[ModelCall, ...]
    ) -> None:
        """``calls`` are the run's calls so far: what is already spent."""
        self._inner = inner
        self._settings = settings
        self._tokens, self._cost = spent(calls)

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """The inner model's answer, or :class:`ModelUnavailable` when the call would pass
        a cap."""
        chars = sum(
            len(text or "")
            for text in (request.system, request.prompt, request.shared_prefix, request.unit_prefix)
        )
        tokens, cost = estimate_call(request.model, chars, self._settings)
        refusal = self._refusal(request.model, tokens, cost)
        if refusal is not None:
            raise ModelUnavailable(f"{refusal}; the {request.purpose} call was not made")
        result = self._inner.complete(request, output)
        used_tokens, used_cost = spent(result.calls)
        self._tokens += used_tokens
        self._cost += used_cost
        return result

    def _refusal(self, model: str, tokens: int, cost: float | None) -> str | None:
        cap_tokens = self._settings.max_input_tokens
        if cap_tokens is not None and self._tokens + tokens > cap_tokens:
            return (
                f"cost cap: reviewers.max_input_tokens {cap_tokens} would be passed "
                f"(~{self._tokens + tokens} input tokens)"
            )
        cap_cost = self._settings.max_cost_usd
        if cap_cost is None:
            return None
        if cost is None:
            return f"cost cap: reviewers.max_cost_usd is set but `{model}` has no known price"
        if self._cost + cost > cap_cost:
            return (
                f"cost cap: reviewers.max_cost_usd ${cap_cost:.4g} would be passed "
                f"(~${self._cost + cost:.4f})"
            )
        return None
