"""Scorecard arithmetic and rendering; corpus loading and materialization with real git."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pr_review.errors import UserError
from pr_review.evaluation.corpus import load_corpus
from pr_review.evaluation.materialize import materialize
from pr_review.evaluation.scorecard import WEIGHTS, grade_of
from pr_review.evaluation.tables import WIDTH, bar, render_scorecard
from pr_review.schema.eval import Dimensions, DimensionScore, Scorecard
from tests.evaluation.builders import tiny_corpus

GUARDRAILS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "guardrails"


@pytest.mark.parametrize(
    ("composite", "grade"),
    [(10.0, "A+"), (9.5, "A+"), (9.45, "A"), (9.0, "A"), (8.5, "A-"), (8.0, "B+"),
     (7.85, "B"), (7.0, "B-"), (6.5, "C+"), (6.0, "C"), (5.5, "C-"), (4.0, "D"), (3.9, "F")],
)
def test_grade_scale(composite: float, grade: str) -> None:
    assert grade_of(composite) == grade


def test_weights_sum_to_one() -> None:
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_bars_are_ten_wide_one_block_per_point() -> None:
    assert bar(8.0) == "████████░░"
    assert bar(10.0) == "██████████"
    assert bar(1.0) == "█░░░░░░░░░"


def test_scorecard_box_lines_are_aligned() -> None:
    dims = {k: DimensionScore(score=s, weight=w, justification="x" * 200 if k == "safety" else k)
            for (k, w), s in zip(WEIGHTS.items(), (8, 6, 9, 8, 7, 10, 8), strict=True)}
    card = Scorecard(skill="fast", timestamp="t", dimensions=Dimensions(**dims), composite=7.85,
                     grade="B", criticalIssues=(), recommendations=("Do X.",),
                     rubricUsed="r", transcriptPath="p")
    lines = render_scorecard(card).splitlines()
    assert {len(line) for line in lines} == {WIDTH + 2}
    assert "Correctness    ████████░░  8.0/10" in lines[3]
    assert "COMPOSITE: 7.85/10 — Grade: B" in "\n".join(lines)
    assert lines[-2].strip("║ ").startswith("→ Do X.")


def test_unknown_case_key_is_a_user_error_naming_it(tmp_path: Path) -> None:
    corpus = tiny_corpus(tmp_path)
    path = corpus / "cases" / "docs" / "case.json"
    data = json.loads(path.read_text())
    data["expected"]["lane_anyof"] = ["green"]
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match=r"expected\.lane_anyof"):
        load_corpus(corpus)


def test_materialized_case_is_a_real_repo_with_the_case_commits(tmp_path: Path) -> None:
    case = next(c for c in load_corpus(tiny_corpus(tmp_path / "c")) if c.id == "secret")
    repo = materialize(case, tmp_path / "repo")
    log = subprocess.run(["git", "log", "--format=%an|%B", f"{repo.base}..{repo.head}"],
                         cwd=repo.repo, capture_output=True, text=True, check=True).stdout
    assert "Co-Authored-By: GitHub Copilot" in log
    assert log.startswith("Dev|fix: retry")
    assert "PASSWORD" in (repo.repo / "app/config.py").read_text()


@pytest.mark.skipif(not GUARDRAILS.is_dir(), reason="shared corpus not present")
def test_the_guardrails_corpus_loads_and_every_case_materializes(tmp_path: Path) -> None:
    cases = load_corpus(GUARDRAILS)
    assert len(cases) >= 16
    for case in cases:
        repo = materialize(case, tmp_path / case.id)
        stat = subprocess.run(["git", "diff", "--numstat", f"{repo.base}...{repo.head}"],
                              cwd=repo.repo, capture_output=True, text=True, check=True).stdout
        assert stat.strip(), case.id
