"""Every content rule's own examples (Fixit pattern), and the trigger contract."""

from __future__ import annotations

import re

import pytest

from pr_review.evidence.content import _compiled
from pr_review.evidence.rules import CATEGORIES, Category, Rule
from pr_review.evidence.scan import block, hits

_CASES = [(c, i, r) for c in CATEGORIES for i, r in enumerate(c.rules)]
_IDS = [f"{c.name}-{i}" for c, i, _ in _CASES]


@pytest.mark.parametrize(("category", "index", "rule"), _CASES, ids=_IDS)
def test_rule_matches_its_positive_examples(category: Category, index: int, rule: Rule) -> None:
    assert rule.matches, "every rule carries at least one positive example"
    for example in rule.matches:
        assert re.search(rule.pattern, example, re.MULTILINE), (category.name, example)


@pytest.mark.parametrize(("category", "index", "rule"), _CASES, ids=_IDS)
def test_rule_ignores_its_negative_examples(category: Category, index: int, rule: Rule) -> None:
    for example in rule.misses:
        assert not re.search(rule.pattern, example, re.MULTILINE), (category.name, example)


@pytest.mark.parametrize(("category", "index", "rule"), _CASES, ids=_IDS)
def test_every_positive_example_holds_a_trigger(category: Category, index: int, rule: Rule) -> None:
    for example in rule.matches:
        assert any(t in example.lower() for t in category.triggers), (category.name, example)


def test_combined_category_scan_finds_positive_examples_with_triggers() -> None:
    for category, pattern in _compiled():
        for rule in category.rules:
            lines = [(10 + i, text) for i, text in enumerate(rule.matches)]
            found = hits(pattern, block(lines), category.triggers)
            assert {h.line for h in found} >= {n for n, t in lines if "\n" not in t}, category.name
