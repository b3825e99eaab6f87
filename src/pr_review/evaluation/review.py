"""The edge between the eval and the review pipeline: review one materialized case.

:data:`ReviewFn` is the seam (tests pass fakes); :func:`pipeline_review` is the production
default: read the PR from the case's git repository, run the full pipeline, write its files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pr_review.config import Config
from pr_review.evaluation.materialize import MaterializedCase
from pr_review.evaluation.results import ReviewOutput
from pr_review.reviewers.interface import StructuredModel
from pr_review.schema.enums import TrustMode


@dataclass(frozen=True)
class ReviewJob:
    """Everything needed to review one case."""

    case_id: str
    repo: MaterializedCase
    title: str
    body: str
    config: Config | None
    """None: the base revision's ``.pr-review/config.yml`` (defaults when absent)."""
    trust_mode: TrustMode
    model: StructuredModel | None
    model_skip_reason: str | None


ReviewFn = Callable[[ReviewJob, Path], ReviewOutput]
"""``(job, case_out_dir) -> output``: review the case and write its files into the directory."""


def pipeline_review(job: ReviewJob, out_dir: Path) -> ReviewOutput:
    """Run the real pipeline on the case's repository and write ``review/`` outputs."""
    # Imported here so the eval's pure parts (metrics, grading, scoring) load without the
    # whole pipeline and its tools.
    from pr_review.pipeline import run_review, write_outputs  # noqa: PLC0415 (see above)
    from pr_review.review_inputs import config_for, policy_files_of  # noqa: PLC0415 (see above)
    from pr_review.sources.git import read_local_pr  # noqa: PLC0415 (see above)

    pr = read_local_pr(job.repo.repo, job.repo.base, job.repo.head, title=job.title, body=job.body)
    config = job.config if job.config is not None else config_for(pr, None)
    outcome = run_review(
        pr,
        config,
        trust_mode=job.trust_mode,
        model=job.model,
        model_skip_reason=job.model_skip_reason,
        policy_files=policy_files_of(pr),
    )
    write_outputs(outcome, out_dir)
    return outcome
