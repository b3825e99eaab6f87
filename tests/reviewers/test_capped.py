"""Calls after the reviewers' (the synthesis tie-break) stay within the run's cost caps."""

from __future__ import annotations

import pytest

from pr_review.reviewers.capped import CappedModel, spent
from pr_review.reviewers.interface import ModelRequest, ModelUnavailable
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.schema.run import ModelCall
from pr_review.synthesis.settings import SynthesisSettings
from pr_review.synthesis.tiebreak import PairAnswers
from tests.synthesis.test_rules import AMBIGUOUS, FakeModel, run

SPENT = (
    ModelCall(
        reviewer="fresh_eyes",
        model="claude-sonnet-4-6",
        input_tokens=9_000,
        cache_read_input_tokens=1_000,
        cost_usd=0.09,
    ),
    ModelCall(reviewer="challenger", model="claude-opus-4-6", input_tokens=500, cost_usd=None),
)
TIE = SynthesisSettings(near_merge=0.9, ambiguous_band=0.9)


def test_spend_counts_every_input_token_and_known_cost() -> None:
    assert spent(SPENT) == (10_500, pytest.approx(0.09))


def test_a_tie_break_that_fits_the_cap_runs_and_its_spend_counts() -> None:
    inner = FakeModel()
    capped = CappedModel(inner, ReviewerSettings(max_cost_usd=1.0), SPENT)
    result = run(*AMBIGUOUS, settings=TIE, model=capped)
    assert len(inner.requests) == 1
    assert len(result.surfaced) == 1


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        (ReviewerSettings(max_cost_usd=0.0901), "max_cost_usd $0.0901 would be passed"),
        (ReviewerSettings(max_input_tokens=10_600), "max_input_tokens 10600 would be passed"),
    ],
)
def test_a_tie_break_that_would_pass_a_cap_is_not_made_and_is_a_note(
    settings: ReviewerSettings, says: str
) -> None:
    inner = FakeModel()
    result = run(*AMBIGUOUS, settings=TIE, model=CappedModel(inner, settings, SPENT))
    assert inner.requests == []
    assert len(result.surfaced) == 2
    assert any(says in note and "synthesis call was not made" in note for note in result.notes)


def test_an_unpriced_model_under_a_cost_cap_is_refused() -> None:
    inner = FakeModel()
    capped = CappedModel(inner, ReviewerSettings(max_cost_usd=5.0), ())
    ask = ModelRequest(purpose="tiebreak", model="unknown-model-9", system="s", prompt="p")
    with pytest.raises(ModelUnavailable, match="`unknown-model-9` has no known price"):
        capped.complete(ask, PairAnswers)
    assert inner.requests == []
