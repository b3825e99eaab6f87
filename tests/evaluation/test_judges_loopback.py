"""Grader and blind comparator through the real Anthropic gateway, against the loopback server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pr_review.evaluation.api import run_compare, run_eval
from pr_review.evaluation.comparator import blind_order, render_comparison
from pr_review.evaluation.runner import RunSettings
from pr_review.reviewers.gateway import AnthropicGateway
from pr_review.schema.eval import Analysis, Comparison, Grading
from tests.evaluation.builders import fake_review, tiny_corpus
from tests.fakes.anthropic_server import (
    RecordedRequest,
    Reply,
    anthropic_server,
    by_tool,
    tool_reply,
)


def _names(request: RecordedRequest) -> list[str]:
    return [line.split("name: ", 1)[1] for line in request.text.splitlines()
            if line.startswith("- name: ")]


def grader_reply(request: RecordedRequest) -> Reply:
    """Fails every assertion about a zero timeout, passes the others."""
    names = _names(request)
    return tool_reply(request, {
        "expectations": [
            {"text": n, "passed": "timeout" not in n.lower(), "evidence": f"judged {n}"}
            for n in names
        ],
        "claims": [{"claim": "says lane", "type": "factual", "verified": True,
                    "evidence": "summary"}],
        "eval_feedback": {"suggestions": [{"assertion": names[0], "reason": "too easy"}],
                          "overall": "weak"},
    })


def comparator_reply(request: RecordedRequest) -> Reply:
    rubric = {"content": {"correctness": 4, "completeness": 5, "precision": 3},
              "structure": {"organization": 4, "formatting": 4, "usability": 5}}
    weaker = {"content": {"correctness": 2, "completeness": 2, "precision": 3},
              "structure": {"organization": 3, "formatting": 3, "usability": 2}}
    return tool_reply(request, {
        "winner": "A",
        "reasoning": "A names the real problem.",
        "rubric": {"A": rubric, "B": weaker},
        "output_quality": {"A": {"score": 8, "strengths": ["precise"], "weaknesses": []},
                           "B": {"score": 4, "strengths": [], "weaknesses": ["vague"]}},
        "criteria_met": {"A": ["Minimal review overhead"], "B": []},
    })


def analysis_reply(request: RecordedRequest) -> Reply:
    return tool_reply(request, {
        "winner_strengths": ["challenger on"],
        "loser_weaknesses": ["challenger off"],
        "improvement_suggestions": [{"priority": "high", "category": "instructions",
                                     "suggestion": "turn the challenger on",
                                     "expected_impact": "catches the race"}],
    })


def _settings(out: Path, gateway: AnthropicGateway, **kw: Any) -> RunSettings:
    return RunSettings(out_dir=out, model=gateway, review=fake_review,
                       clock=lambda: datetime(2024, 5, 1, tzinfo=UTC), **kw)


def test_with_a_model_key_the_eval_also_grades(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")
    with (
        anthropic_server(by_tool({"submit_grading": grader_reply})) as server,
        AnthropicGateway("test-key", base_url=server.base_url, max_retries=0) as gateway,
    ):
        report = run_eval(corpus, config_path=None, settings=_settings(tmp_path / "out", gateway))
        requests = server.messages_requests

    assert len(requests) == 2  # docs and timeout have model criteria; secret has none
    grading = Grading.model_validate_json((tmp_path / "out/cases/timeout/grading.json").read_text())
    by_text = {e.text: e for e in grading.expectations}
    assert by_text["Catches zero timeout"].passed is False
    assert by_text["Catches zero timeout"].evidence == "judged Catches zero timeout"
    assert by_text["Risk classified yellow or higher"].passed is True
    assert grading.summary.model_dump() == {"passed": 1, "failed": 1, "total": 2,
                                            "pass_rate": 0.5}
    assert grading.weighted is not None
    assert (grading.weighted.earned, grading.weighted.possible) == (10, 25)
    assert grading.eval_feedback.overall == "weak"
    raw = json.loads((tmp_path / "out/cases/timeout/grading.json").read_text())
    assert set(raw) >= {"expectations", "summary", "claims", "eval_feedback"}
    assert set(raw["expectations"][0]) >= {"text", "passed", "evidence"}
    assert report.summary.totals.cost_usd is not None


def test_compare_runs_both_configurations_and_judges_blind(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")
    a, b = tmp_path / "fast.yml", tmp_path / "thorough.yml"
    a.write_text("risk:\n  large_diff_lines: 900\n")
    b.write_text("risk:\n  large_diff_lines: 100\n")
    routes = {"submit_comparison": comparator_reply, "submit_analysis": analysis_reply,
              "submit_grading": grader_reply}
    with (
        anthropic_server(by_tool(routes)) as server,
        AnthropicGateway("test-key", base_url=server.base_url, max_retries=0) as gateway,
    ):
        report = run_compare(corpus, a, b, settings=_settings(tmp_path / "out", gateway),
                             seed=7, analyze=True)
        compared = [r for r in server.messages_requests if r.tool_name == "submit_comparison"]

    assert len(report.comparisons) == 3
    for request in compared:  # blind: configuration names never reach the judge
        assert "fast" not in request.text
        assert "thorough" not in request.text
    for c in report.comparisons:
        on_disk = Comparison.model_validate_json(
            (tmp_path / f"out/comparison/{c.case_id}/comparison.json").read_text())
        assert on_disk.order == blind_order(c.case_id, ["fast", "thorough"], 7)
        assert on_disk.winner_config == on_disk.order["A"]
        assert on_disk.rubric["A"].content_score == 4.0
        assert on_disk.rubric["A"].overall_score == 8.3
        Analysis.model_validate_json(
            (tmp_path / f"out/comparison/{c.case_id}/analysis.json").read_text())
    wins = report.summary.wins
    assert sum(wins.values()) == 3
    assert wins["fast"] == sum(1 for c in report.comparisons if c.order["A"] == "fast")
    text = render_comparison(report)
    assert f"fast: {wins['fast']} case(s) won" in text
    assert (tmp_path / "out/fast/metrics.json").is_file()
    assert list((tmp_path / "out/thorough/scores").glob("thorough-*.json"))
    docs = next(c for c in report.comparisons if c.case_id == "docs")
    assert docs.expectation_results is not None
    # two deterministic criteria pass on both; the model said A meets the third
    assert docs.expectation_results["A"].passed == 3
    assert docs.expectation_results["B"].passed == 2


def test_blind_order_is_seeded_and_varies_across_cases() -> None:
    orders = {blind_order(f"case-{i}", ["x", "y"], 1)["A"] for i in range(20)}
    assert orders == {"x", "y"}
    assert blind_order("c", ["x", "y"], 3) == blind_order("c", ["x", "y"], 3)
