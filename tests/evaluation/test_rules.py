"""Rules as data: every criterion and approval rule's own examples, and the real corpus wording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pr_review.evaluation.corpus import Criterion
from pr_review.evaluation.criteria import RULES, CriterionKind, classify, lanes_named
from pr_review.evaluation.detect import APPROVAL_RULES, approval_phrases
from pr_review.schema.enums import Lane

GUARDRAILS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "guardrails"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.kind.value)
def test_criterion_rule_examples(rule: object) -> None:
    from pr_review.evaluation.criteria import CriterionRule

    assert isinstance(rule, CriterionRule)
    for text in rule.matches:
        assert rule.pattern.search(text), text
    for text in rule.ignores:
        assert not rule.pattern.search(text), text


@pytest.mark.parametrize("rule", APPROVAL_RULES, ids=lambda r: r.name)
def test_approval_rule_examples(rule: object) -> None:
    from pr_review.evaluation.detect import PhraseRule

    assert isinstance(rule, PhraseRule)
    for text in rule.matches:
        assert rule.pattern.search(text), text
    for text in rule.ignores:
        assert not rule.pattern.search(text), text


def test_packet_disclaimer_is_not_approval() -> None:
    text = "This is a review aid, not an approval. It is not safe to merge until fixed."
    assert approval_phrases(text) == ()


@pytest.mark.parametrize(
    ("text", "lanes"),
    [
        ("Risk classified red", (Lane.RED,)),
        ("Risk classified yellow or higher", (Lane.YELLOW, Lane.RED)),
        ("Risk classified green or yellow", (Lane.GREEN, Lane.YELLOW)),
        ("Risk classified red or yellow", (Lane.RED, Lane.YELLOW)),
    ],
)
def test_lanes_named(text: str, lanes: tuple[Lane, ...]) -> None:
    assert lanes_named(text) == lanes


@pytest.mark.skipif(not GUARDRAILS.is_dir(), reason="shared corpus not present")
def test_every_upstream_checklist_name_is_classified_sensibly() -> None:
    """All 43 upstream scenarios: lane/flag items deterministic, 'Catches ...' to the model."""
    data = json.loads((GUARDRAILS / "all-scenarios.json").read_text())
    names = {
        item["name"] if isinstance(item, dict) else item
        for scenario in data["scenarios"]
        for item in scenario.get("checklist", [])
    }
    assert len(names) > 40
    kinds = {n: classify(Criterion(name=n, max_score=1)) for n in names}
    for name, kind in kinds.items():
        if name.startswith("Risk classified"):
            assert kind is CriterionKind.LANE, name
        elif name.startswith("Catches") and name != "Catches hardcoded secrets":
            assert kind is CriterionKind.MODEL, name
    assert kinds["Detects oversized PR"] is CriterionKind.OVERSIZED
    assert kinds["Recommends splitting"] is CriterionKind.SPLIT
    assert kinds["Detects AI authorship"] is CriterionKind.AI_ASSISTED
    assert kinds["Flags missing description"] is CriterionKind.MISSING_DESCRIPTION
    assert kinds["Catches hardcoded secrets"] is CriterionKind.SECRETS
    assert kinds["Does not raise irrelevant findings"] is CriterionKind.MODEL


def test_a_secrets_guess_on_a_placeholder_is_not_a_secrets_flag() -> None:
    from pr_review.evaluation.detect import detect
    from pr_review.evaluation.results import Flag
    from pr_review.schema.enums import VerifierSeverity, VerifierStatus
    from pr_review.schema.pack import Verification, VerifierFinding, VerifierRun
    from tests.packet.fixtures import pack

    def with_secrets(severity: VerifierSeverity) -> bool:
        finding = VerifierFinding(file="docs/a.md", line=3, message="guess", severity=severity)
        run = VerifierRun(name="secrets", status=VerifierStatus.PASS, findings=(finding,))
        p = pack(Lane.GREEN, verification=Verification(verifiers=(run,)))
        return detect(Flag.SECRETS, p, ())[0]

    assert not with_secrets(VerifierSeverity.INFO)
    assert with_secrets(VerifierSeverity.WARNING)
