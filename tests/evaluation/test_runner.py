"""run_eval end to end on a tiny corpus in tmp, with a stand-in pipeline and scripted judges."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pr_review.evaluation.api import run_eval
from pr_review.evaluation.runner import RunSettings
from pr_review.evaluation.tables import render_metrics_table, render_scorecard
from pr_review.reviewers.interface import ModelRequest, ModelResult, T
from pr_review.schema.eval import GradedBy, Grading, Scorecard
from pr_review.schema.run import ModelCall
from tests.evaluation.builders import fake_review, tiny_corpus


class ScriptedModel:
    """An in-memory StructuredModel: purpose -> function of the request giving the answer."""

    def __init__(self, script: dict[str, Callable[[ModelRequest], dict[str, Any]]]) -> None:
        self.script = script
        self.requests: list[ModelRequest] = []

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        self.requests.append(request)
        answer = self.script[request.purpose](request)
        call = ModelCall(reviewer=request.purpose, model=request.model, input_tokens=7,
                         output_tokens=3, cost_usd=0.001)
        return ModelResult(value=output.model_validate(answer), calls=(call,))


def clock_from(start: datetime) -> Callable[[], datetime]:
    times = iter(start + timedelta(seconds=i) for i in range(1000))
    return lambda: next(times)


def settings(out: Path, **kw: Any) -> RunSettings:
    base: dict[str, Any] = {"out_dir": out, "review": fake_review, "concurrency": 2,
                            "clock": clock_from(datetime(2024, 5, 1, tzinfo=UTC))}
    return RunSettings(**(base | kw))


def test_offline_eval_measures_every_expectation_and_scores(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")
    lines: list[str] = []
    report = run_eval(corpus, config_path=None,
                      settings=settings(tmp_path / "out", progress=lines.append))

    by_id = {m.case_id: m for m in report.summary.cases}
    assert by_id["docs"].lane.met is True
    assert by_id["secret"].lane.actual == "red"
    assert {c.flag.value: c.met for c in by_id["secret"].flags if c.expected} == {
        "ai_assisted": True, "secrets": True}
    assert by_id["secret"].lines is not None
    assert by_id["secret"].lines.hit_by_verifiers == 1
    t = report.summary.totals
    assert (t.lane_met, t.lane_expected, t.flags_met, t.flags_expected) == (3, 3, 2, 2)
    # progress: a start and an end line per case
    assert sum("reviewing" in line for line in lines) == 3
    assert any(line.startswith("[3/3]") for line in lines)

    table = render_metrics_table(report.summary)
    assert "lane             3/3 (100%)" in table
    for case_id in by_id:
        assert case_id in table

    # Offline: lane and flag criteria graded deterministically, the rest not graded.
    grading = Grading.model_validate_json(
        (tmp_path / "out/cases/docs/grading.json").read_text())
    kinds = {e.text: e.graded_by for e in grading.expectations}
    assert kinds["Risk classified green"] is GradedBy.DETERMINISTIC
    assert kinds["No false positive findings"] is GradedBy.DETERMINISTIC
    assert kinds["Minimal review overhead"] is GradedBy.NOT_GRADED
    assert grading.summary.total == 2
    assert grading.weighted is not None
    assert grading.weighted.earned == 20

    on_disk = json.loads(report.scorecard_path.read_text())
    assert report.scorecard_path.parent == tmp_path / "out/scores"
    assert report.scorecard_path.name.startswith("default-20240501-")
    card = Scorecard.model_validate(on_disk)
    assert set(on_disk) >= {"skill", "timestamp", "dimensions", "composite", "grade",
                            "criticalIssues", "recommendations", "rubricUsed", "transcriptPath"}
    assert card.dimensions.consistency.score == 7.0
    box = render_scorecard(card)
    assert box.splitlines()[0].startswith("╔")
    assert "Grade:" in box


def test_second_run_compares_with_previous_scorecard(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")
    first = run_eval(corpus, config_path=None, settings=settings(tmp_path / "out"))
    second = run_eval(corpus, config_path=None, settings=settings(
        tmp_path / "out", clock=clock_from(datetime(2024, 6, 1, tzinfo=UTC))))
    assert first.scorecard.dimensions.consistency.score == 7.0
    assert second.scorecard.dimensions.consistency.score == 10.0
    assert len(list((tmp_path / "out/scores").glob("default-*.json"))) == 2


def test_with_a_model_the_grader_judges_the_remaining_criteria(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")

    def grade(request: ModelRequest) -> dict[str, Any]:
        # Pass every criterion it is asked about, quoting the packet.
        names = [line.split("name: ", 1)[1] for line in request.prompt.splitlines()
                 if line.startswith("- name: ")]
        return {"expectations": [{"text": n, "passed": True, "evidence": "packet says so"}
                                 for n in names],
                "claims": [{"claim": "lane is set", "type": "factual", "verified": True,
                            "evidence": "pack"}],
                "eval_feedback": {"suggestions": [], "overall": "fine"}}

    model = ScriptedModel({"grader": grade})
    report = run_eval(corpus, config_path=None,
                      settings=settings(tmp_path / "out", model=model))

    asked = "\n".join(r.prompt for r in model.requests if r.purpose == "grader")
    assert "Minimal review overhead" in asked
    assert "Catches zero timeout" in asked
    assert "Risk classified" not in asked  # lane criteria never go to the model
    g = report.summary.grading_totals
    assert g is not None
    assert g.expectations_total == 8
    assert g.weighted_score == pytest.approx(1.0)
    assert report.summary.totals.input_tokens > 0


def test_a_broken_case_is_recorded_and_the_rest_go_on(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")

    def flaky(job: Any, out: Path) -> Any:
        if job.case_id == "timeout":
            raise RuntimeError("verifier exploded")
        return fake_review(job, out)

    report = run_eval(corpus, config_path=None,
                      settings=settings(tmp_path / "out", review=flaky))
    by_id = {m.case_id: m for m in report.summary.cases}
    assert by_id["timeout"].status == "error"
    assert "verifier exploded" in (by_id["timeout"].error or "")
    assert by_id["docs"].status == "ok"
    assert report.summary.totals.errors == 1
    assert "error  timeout: RuntimeError: verifier exploded" in render_metrics_table(
        report.summary)
