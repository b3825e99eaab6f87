"""Every risk factor the evidence stage can name: the registry ``risk.yellow_at_most`` checks
its entries against, so a misspelt factor is a configuration error naming the known ones
instead of a cap that silently never applies."""

from __future__ import annotations

from functools import cache

from pr_review.evidence import (
    advisory,
    backtracking,
    ci,
    entity_escapes,
    guards,
    input_flows,
    limits,
    line_breaks,
    log_quoting,
    markup_escaping,
    name_lists,
    origin_checks,
    path_escapes,
    randomness,
    raw_markup,
    security_scope,
    validation_regexes,
)
from pr_review.evidence.markers import MARKERS
from pr_review.evidence.risk import OWN_FACTORS
from pr_review.evidence.rules import CATEGORIES
from pr_review.rules import SinkCategory

NOT_CAPPABLE: dict[str, str] = {
    "reviewer-escalation": "set `risk.escalation` instead (it decides when reviewers raise the "
    "lane)",
}
"""Factors named elsewhere than the evidence stage's lane, with where they are configured."""


@cache
def known_factors() -> frozenset[str]:
    """The names of every factor the evidence stage's lane can carry."""
    structural = {
        advisory.FACTOR, backtracking.REMOVED, backtracking.ADDED, ci.TRUST, ci.CHANGE,
        *name_lists.FACTORS, entity_escapes.FACTOR, guards.FACTOR, guards.ACCESS_FACTOR,
        guards.ADDED_FACTOR, input_flows.FACTOR, limits.FACTOR, line_breaks.FACTOR,
        log_quoting.FACTOR, markup_escaping.FACTOR, origin_checks.FACTOR,
        path_escapes.FACTOR, randomness.FACTOR, raw_markup.FACTOR, security_scope.FACTOR,
        security_scope.CHECK_FACTOR,
        validation_regexes.FACTOR,
    }
    return frozenset(
        OWN_FACTORS
        | structural
        | {marker.factor for marker in MARKERS}
        | {category.policy.factor for category in CATEGORIES}
        | {f"sink-{category.value}" for category in SinkCategory}
    )


def unknown_factor(name: str) -> str | None:
    """Why ``name`` cannot be capped (None when it can)."""
    if name in NOT_CAPPABLE:
        return f"`{name}` cannot be capped here: {NOT_CAPPABLE[name]}"
    if name in known_factors():
        return None
    return f"unknown risk factor `{name}` (known: {', '.join(sorted(known_factors()))})"
