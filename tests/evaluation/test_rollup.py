"""Verdict roll-up (seed 000 aggregate) over real files on disk."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pr_review.errors import UserError
from pr_review.evaluation.rollup import aggregate_verdicts, find_verdict_files
from pr_review.schema.verdicts import VerdictAggregate


def check(name: str, passed: bool | None, confidence: str = "high") -> dict[str, Any]:
    return {"name": name, "applicable": passed is not None, "passed": passed,
            "confidence": confidence, "evidence": "diff line 3"}


def verdict(checks: list[dict[str, Any]], *, tokens: tuple[int, int] = (1000, 200)) -> dict[
    str, Any
]:
    return {
        "session_file": "local:pr@abc",
        "agent": "pr-review",
        "instructions": [
            {"file": "tests.json", "instruction": "Add tests", "tile": ".pr-review",
             "relevant": True, "checks": checks},
            {"file": "docs.json", "instruction": "Document APIs", "tile": ".pr-review",
             "relevant": False, "checks": []},
        ],
        "_meta": {"model": "claude-haiku-4-5", "started_at": "2024-01-01T00:00:00Z",
                  "completed_at": "2024-01-01T00:00:01Z", "duration_ms": 1000,
                  "input_tokens": tokens[0], "output_tokens": tokens[1],
                  "token_source": "api", "transcript_chars": 10, "checks_count": len(checks)},
    }


def test_rolls_up_pass_rates_confidence_and_cost(tmp_path: Path) -> None:
    runs = [
        [check("tests-added", True), check("tests-pass", None)],
        [check("tests-added", False, "medium"), check("tests-pass", True, "low")],
        [check("tests-added", True), check("tests-pass", True)],
    ]
    for i, checks in enumerate(runs):
        out = tmp_path / f"run{i}" / "review"
        out.mkdir(parents=True)
        (out / "verdicts.json").write_text(json.dumps(verdict(checks)))
    (tmp_path / "run3").mkdir()
    (tmp_path / "run3" / "verdicts.json").write_text("null\n")  # no policy verifiers ran

    files = find_verdict_files([tmp_path])
    assert len(files) == 4
    agg = aggregate_verdicts(files, now=lambda: datetime(2024, 3, 11, 14, 35, tzinfo=UTC))

    assert agg.sessions_count == 3
    assert agg.timestamp == "2024-03-11T14:35:00Z"
    tile = agg.tiles[".pr-review"]
    added = tile.instructions["tests.json"].checks["tests-added"]
    assert (added.applicable_count, added.passed_count, added.pass_rate) == (3, 2, 0.6667)
    assert added.confidence_breakdown.model_dump() == {"high": 2, "medium": 1, "low": 0}
    passing = tile.instructions["tests.json"].checks["tests-pass"]
    assert (passing.applicable_count, passing.passed_count) == (2, 2)
    assert tile.overall_pass_rate == 0.8
    assert agg.cost.total_input_tokens == 3000
    assert agg.cost.total_output_tokens == 600
    # haiku 4.5: $1/M in, $5/M out -> 3 x (0.001 + 0.001)
    assert agg.cost.estimated_cost_usd == pytest.approx(0.006)
    VerdictAggregate.model_validate_json(agg.model_dump_json())
    data = json.loads(agg.model_dump_json())
    assert set(data) == {"timestamp", "sessions_count", "tiles", "cost"}


def test_a_bad_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "verdicts.json"
    bad.write_text('{"session_file": "x"}')
    with pytest.raises(UserError, match=re.escape(str(bad))):
        aggregate_verdicts([bad])
