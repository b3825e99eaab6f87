"""Terminal text and SARIF 2.1.0 of the same findings."""

from __future__ import annotations

import json

import pytest

from pr_review.packet import PacketInput
from pr_review.packet.questions import ESCALATION_AREAS, EscalationArea, escalation_areas
from pr_review.packet.sarif import render_sarif
from pr_review.packet.terminal import render_terminal
from pr_review.schema.enums import EvidenceType, FactorSeverity, FindingSource, Lane, Severity
from pr_review.schema.finding import Evidence, SynthesizedFinding
from pr_review.schema.pack import Risk, RiskFactor
from tests.packet.fixtures import cand, meta, pack, synthesized


def findings() -> tuple[SynthesizedFinding, ...]:
    return synthesized(
        cand("a", title="Cache key \x1b[31minjection\x07"),
        cand(
            "b",
            title="Slow loop",
            file="",
            line_start=None,
            line_end=None,
            severity=Severity.LOW,
            why_it_matters="quadratic scan of orders",
            evidence=Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="for o in orders"),
        ),
        cand(
            "v",
            source=FindingSource.VERIFIER,
            origin="bandit",
            rule_id="B104",
            title="Bind all",
            why_it_matters="listens on 0.0.0.0",
            evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail="B104 hit"),
            file="src/api/handler.py",
            line_start=90,
            line_end=90,
            severity=Severity.MEDIUM,
        ),
        cand(
            "s",
            title="Variable name is not descriptive",
            why_it_matters="readability",
            line_start=3,
        ),
    )


def test_terminal_colours_only_when_asked_and_strips_escape_sequences() -> None:
    inp = PacketInput(pack=pack(Lane.RED), findings=findings(), meta=meta())
    plain = render_terminal(inp, color=False)
    coloured = render_terminal(inp, color=True)
    assert "\x1b" not in plain
    assert "\x07" not in plain
    assert "\x1b[31mRED\x1b[0m" in coloured
    assert coloured.count("\x1b[") > plain.count("\x1b[")
    assert "Variable name" not in plain
    assert "not an approval" in plain


def test_sarif_has_the_required_fields_levels_rules_and_fingerprints() -> None:
    log = json.loads(render_sarif(findings(), tool_version="0.1.0"))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "pr-review-guardrails"
    rule_ids = [r["id"] for r in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    results = run["results"]
    assert len(results) == 3  # the suppressed style nit is not exported
    for r in results:
        assert r["message"]["text"]
        assert rule_ids[r["ruleIndex"]] == r["ruleId"]
        assert r["partialFingerprints"]["prReviewFingerprint/v1"]
        assert r["level"] in {"error", "warning", "note"}
        for loc in r.get("locations", []):
            region = loc["physicalLocation"].get("region", {})
            assert region.get("startLine", 1) >= 1
    by_rule = {r["ruleId"]: r for r in results}
    assert by_rule["bandit/B104"]["level"] == "warning"
    assert by_rule["bandit/B104"]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 90,
        "endLine": 90,
    }
    assert any("locations" not in r for r in results)  # a finding with no file


@pytest.mark.parametrize("area", ESCALATION_AREAS, ids=lambda a: a.name)
def test_each_escalation_area_is_revealed_by_its_example_factor(area: EscalationArea) -> None:
    factor = RiskFactor(factor=area.example_factor, files=("x",), severity=FactorSeverity.RED)
    found = escalation_areas(pack(Lane.RED, risk=Risk(lane=Lane.RED, factors=(factor,))))
    assert area in [a for a, _ in found]
