"""Replay: recorded outputs answer by purpose, so the harness (grading included) runs offline."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pr_review.evaluation.api import run_eval
from pr_review.evaluation.grader import GraderAnswer
from pr_review.evaluation.replay import RecordingModel, ReplayModel
from pr_review.evaluation.runner import RunSettings
from pr_review.reviewers.interface import ModelOutputInvalid, ModelRequest, ModelUnavailable
from pr_review.schema.eval import Grading
from tests.evaluation.builders import fake_review, tiny_corpus


def _request(purpose: str) -> ModelRequest:
    return ModelRequest(purpose=purpose, model="m", system="s", prompt="p")


ANSWER = {"expectations": [{"text": "Catches zero timeout", "passed": True,
                            "evidence": "finding at app/config.py:1"}]}


def test_replay_answers_in_order_then_repeats_the_last(tmp_path: Path) -> None:
    (tmp_path / "grader.json").write_text(json.dumps({
        "responses": [ANSWER, {"expectations": []}],
        "usage": {"input_tokens": 11, "output_tokens": 4}}))
    model = ReplayModel.from_dir(tmp_path)
    first = model.complete(_request("grader"), GraderAnswer)
    assert first.value.expectations[0].passed is True
    assert first.calls[0].input_tokens == 11
    assert model.complete(_request("grader"), GraderAnswer).value.expectations == ()
    assert model.complete(_request("grader"), GraderAnswer).value.expectations == ()
    with pytest.raises(ModelUnavailable, match="fresh_eyes"):
        model.complete(_request("fresh_eyes"), GraderAnswer)


def test_an_invalid_recording_is_an_invalid_output(tmp_path: Path) -> None:
    (tmp_path / "grader.json").write_text(json.dumps({"expectations": "nope"}))
    with pytest.raises(ModelOutputInvalid):
        ReplayModel.from_dir(tmp_path).complete(_request("grader"), GraderAnswer)


def test_recording_model_writes_what_replay_reads(tmp_path: Path) -> None:
    source = ReplayModel({"grader": [ANSWER]})
    recorder = RecordingModel(source)
    recorder.complete(_request("grader"), GraderAnswer)
    recorder.write(tmp_path / "recorded")
    again = ReplayModel.from_dir(tmp_path / "recorded").complete(_request("grader"), GraderAnswer)
    assert again.value.model_dump() == GraderAnswer.model_validate(ANSWER).model_dump()


def test_eval_with_replay_grades_from_recordings_offline(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path / "corpus")
    recorded = corpus / "cases" / "timeout" / "recorded"
    recorded.mkdir()
    (recorded / "grader.json").write_text(json.dumps(ANSWER))
    seen_models: dict[str, object] = {}

    def review(job, out):  # type: ignore[no-untyped-def]
        seen_models[job.case_id] = job.model_skip_reason
        return fake_review(job, out)

    run_eval(corpus, config_path=None, settings=RunSettings(
        out_dir=tmp_path / "out", replay=True, review=review,
        clock=lambda: datetime(2024, 1, 1, tzinfo=UTC)))

    grading = Grading.model_validate_json(
        (tmp_path / "out/cases/timeout/grading.json").read_text())
    assert grading.model_status == "ran"
    assert {e.text: e.passed for e in grading.expectations}["Catches zero timeout"] is True
    docs = Grading.model_validate_json((tmp_path / "out/cases/docs/grading.json").read_text())
    assert "no recorded outputs" in docs.model_status
    assert seen_models["timeout"] is None
    assert "replay" in str(seen_models["docs"])
