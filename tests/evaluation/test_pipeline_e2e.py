"""The eval with the real pipeline (skipped until every stage of the pipeline is importable)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from tests.evaluation.builders import tiny_corpus

pytest.importorskip("pr_review.pipeline")

GUARDRAILS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "guardrails"


def _args(corpus: Path, out: Path, **kw: object) -> argparse.Namespace:
    base = {"corpus": corpus, "config": None, "out_dir": out, "compare": None, "replay": False,
            "concurrency": 2}
    return argparse.Namespace(**(base | kw))


def test_eval_command_offline_on_a_tiny_corpus(tmp_path: Path) -> None:
    from pr_review.evaluation.cli import run_eval_command

    corpus = tiny_corpus(tmp_path / "corpus")
    out, lines = io.StringIO(), []
    code = run_eval_command(_args(corpus, tmp_path / "out"), progress=lines.append, env={},
                            stdout=out)
    assert code == 0
    text = out.getvalue()
    for case_id in ("docs", "secret", "timeout"):
        assert case_id in text
    assert "VERDICT SCORECARD — default" in text
    assert (tmp_path / "out/cases/secret/review/evidence-pack.json").is_file()
    assert (tmp_path / "out/metrics.json").is_file()


@pytest.mark.slow
@pytest.mark.skipif(not GUARDRAILS.is_dir(), reason="shared corpus not present")
def test_eval_command_offline_on_the_guardrails_corpus(tmp_path: Path) -> None:
    from pr_review.evaluation.cli import run_eval_command

    out: io.StringIO = io.StringIO()
    code = run_eval_command(_args(GUARDRAILS, tmp_path / "out"), progress=lambda _: None,
                            env={}, stdout=out)
    assert code == 0
    assert "payments-api-pr13-hardcoded-secrets" in out.getvalue()
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error ")]
    assert "cases            16 (0 errors)" in out.getvalue(), errors


def test_eval_command_on_a_mixed_bundle_corpus_prints_the_lane_figures(tmp_path: Path) -> None:
    from pr_review.evaluation.cli import run_eval_command
    from tests.evaluation.builders import bundle_corpus

    corpus = bundle_corpus(tmp_path / "corpus", tmp_path / "work")
    out = io.StringIO()
    code = run_eval_command(_args(corpus, tmp_path / "out", concurrency=3),
                            progress=lambda _: None, env={}, stdout=out)
    assert code == 0
    text = out.getvalue()
    assert "cases            6 (0 errors)" in text
    assert "lane confusion (rows: accepted lanes; columns: lane given)" in text
    for figure in ("security recall", "false reds", "neutral green"):
        assert figure in text
    assert (tmp_path / "out/cases/b-code/review/evidence-pack.json").is_file()
