"""The entry points the CLI calls: :func:`run_eval` and :func:`run_compare`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pr_review.config import Config, load_config
from pr_review.errors import UserError
from pr_review.evaluation.comparator import ComparisonReport, compare_runs
from pr_review.evaluation.results import EvalSummary
from pr_review.evaluation.runner import CorpusRun, RunSettings, config_label, run_corpus
from pr_review.evaluation.scorecard import build_scorecard, latest, persist
from pr_review.schema.eval import Scorecard


@dataclass(frozen=True)
class EvalReport:
    """One configuration's eval: metrics (and grades), scorecard, where they were written."""

    summary: EvalSummary
    scorecard: Scorecard
    scorecard_path: Path
    metrics_path: Path
    run: CorpusRun


def run_eval(
    corpus_dir: Path,
    *,
    config_path: Path | None,
    settings: RunSettings,
) -> EvalReport:
    """Review, measure and grade every case, then score and persist the scorecard.

    ``config_path`` None: each case's base revision configuration (defaults when absent).
    """
    name = config_label(config_path)
    run = run_corpus(corpus_dir, _load(config_path), name, settings)
    return _score(run, settings)


def _score(run: CorpusRun, settings: RunSettings) -> EvalReport:
    scores_dir = settings.out_dir / "scores"
    now = settings.clock()
    metrics_path = settings.out_dir / "metrics.json"
    card = build_scorecard(
        run.summary,
        previous=latest(scores_dir, run.summary.config),
        timestamp=now,
        transcript_path=str(metrics_path),
    )
    path = persist(card, scores_dir, now)
    return EvalReport(
        summary=run.summary, scorecard=card, scorecard_path=path, metrics_path=metrics_path,
        run=run,
    )


def run_compare(
    corpus_dir: Path,
    config_a: Path,
    config_b: Path,
    *,
    settings: RunSettings,
    seed: int = 0,
    analyze: bool = False,
) -> ComparisonReport:
    """Run both configurations, then compare each case's two outputs blind.

    Each configuration's run goes to ``<out>/<name>/`` (metrics, grades, scorecard); the
    comparisons to ``<out>/comparison/<case>/comparison.json`` and the summary to
    ``<out>/comparison/summary.json``.
    """
    name_a = config_label(config_a)
    name_b = config_label(config_b, taken=(name_a,))
    reports = []
    for name, path in ((name_a, config_a), (name_b, config_b)):
        sub = replace(settings, out_dir=settings.out_dir / name)
        settings.progress(f"configuration {name} ({path})")
        reports.append(_score(run_corpus(corpus_dir, _load(path), name, sub), sub))
    return compare_runs(
        reports[0].run,
        reports[1].run,
        config_paths=(config_a, config_b),
        settings=settings,
        seed=seed,
        analyze=analyze,
        scorecards=(reports[0].scorecard, reports[1].scorecard),
    )


def _load(config_path: Path | None) -> Config | None:
    if config_path is None:
        return None
    if not config_path.is_file():
        raise UserError(f"{config_path}: no such configuration file. Pass an existing YAML file.")
    return load_config(config_path)
