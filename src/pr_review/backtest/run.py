"""Review every merged PR found in the history, concurrently, each with its base's config.

Each PR is read with :func:`pr_review.sources.git.read_local_pr` as ``base...head`` and reviewed
with the configuration and policy files of its own base revision (what the Action would have
used when the PR was open; ``--config`` gives one configuration file for all), as an untrusted
PR: built-in static verifiers only, no
repository commands run on historical revisions. A PR whose review fails (an invalid
configuration at its base, a broken commit) is recorded with its error; the others go on.
The review only reads commits and trees, so concurrent reviews share the repository.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pr_review.backtest.history import MergedPR
from pr_review.backtest.progress import Progress
from pr_review.backtest.report import PRResult
from pr_review.config import Config
from pr_review.errors import ReviewError
from pr_review.reviewers.interface import StructuredModel
from pr_review.schema.enums import TrustMode

ModelFor = Callable[[Config], tuple[StructuredModel | None, str | None]]
"""A PR's configuration -> the model to review it with (or None and why not)."""

DETERMINISTIC = "backtest: deterministic review (pass --with-model to run the AI reviewers)"


def no_model(_: Config) -> tuple[StructuredModel | None, str | None]:
    """The deterministic backtest: no model, and the reason recorded."""
    return None, DETERMINISTIC


@dataclass(frozen=True)
class RunSettings:
    """How to review the PRs."""

    concurrency: int = 2
    model_for: ModelFor = no_model
    trust_mode: TrustMode = TrustMode.UNTRUSTED
    config: Path | None = None
    """``--config``: one configuration file for every PR instead of each base revision's."""


def review_all(
    repo: Path, prs: Sequence[MergedPR], settings: RunSettings, progress: Progress
) -> tuple[PRResult, ...]:
    """Review each PR (in ``prs`` order in the result)."""
    with ThreadPoolExecutor(max_workers=max(1, settings.concurrency)) as pool:
        results = tuple(pool.map(lambda pr: _review_one(repo, pr, settings, progress), prs))
    progress.close()
    return results


def _review_one(
    repo: Path, merged: MergedPR, settings: RunSettings, progress: Progress
) -> PRResult:
    # Imported here so `pr-review --help` and the history checks load without the pipeline.
    from pr_review.pipeline import run_review  # noqa: PLC0415 (see above)
    from pr_review.review_inputs import config_for, policy_files_of  # noqa: PLC0415 (see above)
    from pr_review.sources.git import read_local_pr  # noqa: PLC0415 (see above)

    started = time.monotonic()
    try:
        pr = read_local_pr(repo, merged.base, merged.head, title=merged.title, body=merged.body)
        config = config_for(pr, settings.config)
        model, skip = settings.model_for(config)
        outcome = run_review(
            pr,
            config,
            trust_mode=settings.trust_mode,
            model=model,
            model_skip_reason=skip,
            policy_files=policy_files_of(pr),
        )
    except Exception as exc:  # one broken PR is recorded; the backtest goes on
        reason = str(exc) if isinstance(exc, ReviewError) else f"{type(exc).__name__}: {exc}"
        result = PRResult.failed(merged, reason, seconds=time.monotonic() - started)
    else:
        result = PRResult.of(
            merged,
            outcome.pack,
            findings=len(outcome.surfaced),
            cost_usd=outcome.meta.total_cost_usd,
            seconds=time.monotonic() - started,
        )
    progress.finished(result.label, result.lane.value if result.lane else "error")
    return result
