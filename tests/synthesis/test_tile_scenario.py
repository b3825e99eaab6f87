"""The tile's own synthesis scenario (``../shared/corpus/guardrails/synthesis``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pr_review.schema.enums import Action, Confidence
from pr_review.schema.finding import CandidateFinding, SynthesizedFinding
from pr_review.synthesis import ClusterReport, SynthesisResult, SynthesisSettings, synthesize
from pr_review.synthesis.legacy import from_legacy

SCENARIO = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "guardrails"
SCENARIO = SCENARIO / "synthesis"

pytestmark = pytest.mark.skipif(not SCENARIO.is_dir(), reason="shared corpus not present")


def scenario_candidates() -> list[CandidateFinding]:
    """Every finding of the scenario, through the legacy adapter."""
    return [
        from_legacy(item)
        for name in ("fresh_eyes_findings", "challenger_findings", "verifier_findings")
        for item in json.loads((SCENARIO / f"{name}.json").read_text(encoding="utf-8"))
    ]


@pytest.fixture(scope="module")
def result() -> SynthesisResult:
    return synthesize(
        scenario_candidates(), diff=None, verification=None, settings=SynthesisSettings()
    )


def by_id(result: SynthesisResult, finding_id: str) -> SynthesizedFinding:
    return next(f for f in result.findings if f.finding_id == finding_id)


def cluster_of(result: SynthesisResult, finding_id: str) -> ClusterReport:
    return next(c for c in result.clusters if finding_id in c.member_ids)


def test_cache_key_findings_merge_and_are_corroborated(result: SynthesisResult) -> None:
    cluster = cluster_of(result, "fe-001")
    assert set(cluster.member_ids) == {"fe-001", "fe-002", "ch-001"}
    head = by_id(result, cluster.canonical_id)
    assert not head.suppressed
    assert set(head.corroborated_by) >= {"fresh_eyes", "challenger"}
    assert head.merged_confidence is Confidence.HIGH
    assert cluster.strategy == "corroboration"


def test_stack_trace_is_contested_with_action_discuss(result: SynthesisResult) -> None:
    cluster = cluster_of(result, "fe-003")
    assert set(cluster.member_ids) == {"fe-003", "ch-002"}
    head = by_id(result, "fe-003")
    assert not head.suppressed
    assert head.contested_by == ("challenger",)
    assert head.action is Action.DISCUSS
    assert head.requires_human
    assert len(head.positions) == 2
    assert cluster.strategy == "conflict"


def test_naming_nit_is_suppressed_as_style(result: SynthesisResult) -> None:
    nit = by_id(result, "fe-004")
    assert nit.suppressed
    assert nit.suppression_reason is not None
    assert "style" in nit.suppression_reason
    assert "linter" in nit.suppression_reason


def test_ttl_finding_surfaces(result: SynthesisResult) -> None:
    ttl = by_id(result, "ch-003")
    assert not ttl.suppressed
    assert ttl.merged_ids == ()


def test_suppressed_findings_are_retained_with_reasons(result: SynthesisResult) -> None:
    ids = sorted(f.finding_id for f in result.findings)
    assert ids == sorted(c.finding_id for c in scenario_candidates())
    assert result.suppressed
    assert all(f.suppression_reason for f in result.suppressed)
    assert all(f.merged_confidence is not None for f in result.findings)


def test_rank_order_with_scores(result: SynthesisResult) -> None:
    ranks = [(f.rank, f.rank_score) for f in result.surfaced]
    assert [r for r, _ in ranks] == list(range(1, len(ranks) + 1))
    scores = [s for _, s in ranks]
    assert scores == sorted(scores, reverse=True)
    first = result.surfaced[0]
    assert first.finding_id == cluster_of(result, "fe-001").canonical_id
    assert first.rank_score == 18  # 3 (high) x 3 (high) x 2 (hunk-level code)
    report = result.report_markdown()
    assert "corroboration" in report
    assert "conflict" in report
    assert "| 18 |" in report
