"""``pr-review eval``: the command's glue between argparse and :mod:`pr_review.evaluation.api`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from pr_review.config import Config, load_config
from pr_review.errors import UserError
from pr_review.evaluation.api import run_compare, run_eval
from pr_review.evaluation.comparator import render_comparison
from pr_review.evaluation.runner import RunSettings
from pr_review.evaluation.tables import render_metrics_table, render_scorecard
from pr_review.reviewers.interface import StructuredModel


def run_eval_command(
    args: argparse.Namespace,
    *,
    progress: Callable[[str], None],
    env: Mapping[str, str] = os.environ,
    stdout: TextIO = sys.stdout,
) -> int:
    """Run ``eval`` (or ``eval --compare A B``) and print the tables; returns the exit code."""
    if args.concurrency < 1:
        raise UserError("--concurrency must be at least 1.")
    compare: list[Path] | None = args.compare
    model, reason = (None, "replay: recorded outputs only") if args.replay else _model(
        compare[0] if compare else args.config, env
    )
    settings = RunSettings(
        out_dir=args.out_dir,
        model=model,
        model_skip_reason=reason,
        replay=args.replay,
        concurrency=args.concurrency,
        progress=progress,
    )
    try:
        return _run(args, settings, compare, progress=progress, stdout=stdout)
    finally:
        close = getattr(model, "close", None)
        if callable(close):
            close()


def _run(
    args: argparse.Namespace,
    settings: RunSettings,
    compare: list[Path] | None,
    *,
    progress: Callable[[str], None],
    stdout: TextIO,
) -> int:
    if compare:
        report = run_compare(args.corpus, compare[0], compare[1], settings=settings)
        for card in report.scorecards:
            stdout.write(render_scorecard(card))
        stdout.write(render_comparison(report))
        progress(f"comparison written to {report.summary_path}")
        return 0
    result = run_eval(args.corpus, config_path=args.config, settings=settings)
    stdout.write(render_metrics_table(result.summary))
    stdout.write("\n" + render_scorecard(result.scorecard))
    progress(f"metrics in {result.metrics_path}; scorecard in {result.scorecard_path}")
    return 0


def _model(
    config_path: Path | None, env: Mapping[str, str]
) -> tuple[StructuredModel | None, str | None]:
    # The gateway (and the anthropic SDK) load only when a real model is wanted.
    from pr_review.pipeline import model_from_env  # noqa: PLC0415 (see above)

    config = load_config(config_path) if config_path is not None else Config()
    return model_from_env(config, env)
