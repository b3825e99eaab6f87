"""``pr-review backtest``: the command's glue between argparse and the backtest stages."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from pr_review.backtest.estimate import CostMeter, EstimatingModel
from pr_review.backtest.history import (
    MergedPR,
    Selection,
    check_repository,
    find_merged_prs,
    parse_since,
)
from pr_review.backtest.progress import Progress
from pr_review.backtest.report import build_report, render_summary, write_report
from pr_review.backtest.run import RunSettings, review_all
from pr_review.config import Config
from pr_review.errors import UserError
from pr_review.review_inputs import explicit_config
from pr_review.reviewers.interface import StructuredModel

DEFAULT_LAST = 100


def selection_of(args: argparse.Namespace) -> Selection:
    """``--last N`` or ``--since DATE`` (not both); the newest 100 when neither is given."""
    if args.last is not None and args.since is not None:
        raise UserError(
            "--last and --since both given. Pass one: --last N (the newest N PRs) or "
            "--since YYYY-MM-DD (every PR merged since)."
        )
    if args.since is not None:
        return Selection(since=parse_since(args.since))
    last = DEFAULT_LAST if args.last is None else args.last
    if last < 1:
        raise UserError(f"--last {last}: pass a number of PRs, at least 1.")
    return Selection(last=last)


def run_backtest_command(
    args: argparse.Namespace,
    *,
    env: Mapping[str, str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Find the merged PRs, review them, write ``backtest.json``/``.md``; returns 0."""
    env = os.environ if env is None else env
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if args.concurrency < 1:
        raise UserError(f"--concurrency {args.concurrency}: pass at least 1.")
    selection = selection_of(args)
    config_file: Path | None = getattr(args, "config", None)
    if config_file is not None:
        explicit_config(config_file)  # every PR would fail on a bad file: stop before any
    repo: Path = args.repo
    check_repository(repo)
    prs = find_merged_prs(repo, args.branch, selection)
    model = _model(env) if args.with_model else None
    stderr.write(f"pr-review: {len(prs)} merged pull requests in {args.branch} "
                 f"({selection.describe()})\n")
    settings = RunSettings(concurrency=args.concurrency, config=config_file)
    if model is not None:
        _state_cost(repo, prs, settings, stderr)
        settings = RunSettings(concurrency=args.concurrency, model_for=lambda _: (model, None),
                               config=config_file)
    started = time.monotonic()
    try:
        results = review_all(repo, prs, settings, Progress(len(prs), stderr))
    finally:
        close = getattr(model, "close", None)
        if callable(close):
            close()
    report = build_report(
        results,
        repo=repo,
        branch=args.branch,
        selection=selection.describe(),
        with_model=args.with_model,
        configuration=None if config_file is None else f"--config {config_file}, for every PR",
        generated_at=datetime.now(UTC),
        wall_seconds=time.monotonic() - started,
    )
    json_path, md_path = write_report(report, args.out_dir)
    stdout.write(render_summary(report))
    stderr.write(f"pr-review: wrote {json_path} and {md_path}\n")
    return 0


def _model(env: Mapping[str, str]) -> StructuredModel:
    # The gateway (and the anthropic SDK) load only when a model is asked for.
    from pr_review.pipeline import model_from_env  # noqa: PLC0415 (see above)

    model, _ = model_from_env(Config(), env)
    if model is None:
        raise UserError(
            "--with-model needs ANTHROPIC_API_KEY in the environment. Set it, or drop "
            "--with-model for the deterministic backtest."
        )
    return model


def _state_cost(
    repo: Path, prs: tuple[MergedPR, ...], settings: RunSettings, stderr: TextIO
) -> None:
    """A dry run that counts every request the model run would send, then says what it costs."""
    meter = CostMeter()
    stderr.write("pr-review: estimating the model cost (a dry run: nothing is sent)\n")

    def estimating(config: Config) -> tuple[StructuredModel | None, str | None]:
        return EstimatingModel(meter, config.reviewers.price_table()), None

    dry = RunSettings(concurrency=settings.concurrency, model_for=estimating)
    review_all(repo, prs, dry, Progress(len(prs), stderr))
    stderr.write(f"pr-review: --with-model: {meter.total.describe()}\n")
