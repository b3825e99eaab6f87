"""Deciding who reviews what: skips, challenger triggers, and oversized-PR chunks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from pr_review.reviewers.interface import StructuredModel
from pr_review.reviewers.settings import ChallengerMode, OversizedMode, ReviewerSettings
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import ReviewerRun, ReviewerStatus
from pr_review.sources.diff import Diff
from pr_review.sources.diff_select import drop_files, select_files


@dataclass(frozen=True)
class Unit:
    """A part of the PR reviewed on its own: the whole PR, or one subsystem chunk."""

    suffix: str
    """Appended to reviewer names: empty for the whole PR, ``:<subsystem>`` for a chunk."""
    raw_diff: str
    files: frozenset[str] | None
    """The chunk's files; None for the whole PR."""


@dataclass(frozen=True)
class Units:
    """The plan of an AI review."""

    reviewable: tuple[Unit, ...]
    skipped: tuple[ReviewerRun, ...] = ()
    policy_skip: ReviewerRun | None = None
    reviewed_files: frozenset[str] | None = None
    """None: every file with a patch was reviewed."""


def skip_reason_for(
    pack: EvidencePack,
    settings: ReviewerSettings,
    model: StructuredModel | None,
    skip_reason: str | None,
    no_key_reason: str,
) -> str | None:
    """Why no AI reviewer runs at all, or None."""
    if not settings.enabled:
        return "AI reviewers disabled in the configuration (reviewers.enabled: false)"
    if skip_reason:
        return skip_reason
    if model is None:
        return no_key_reason
    oversize = pack.diff.oversize
    if oversize.oversized and settings.oversized is OversizedMode.SKIP:
        return (
            f"the diff is too large for AI review (about {oversize.estimated_tokens} tokens, "
            f"budget {oversize.threshold_tokens}); nothing was truncated. Split the PR, or set "
            "reviewers.oversized: chunk to review it by subsystem"
        )
    return None


def skipped_runs(reason: str, *, has_policies: bool) -> tuple[ReviewerRun, ...]:
    """Every reviewer recorded as skipped with the same reason."""
    names = ["fresh_eyes", "challenger"] + (["policy_verifiers"] if has_policies else [])
    return tuple(ReviewerRun(name=n, status=ReviewerStatus.SKIPPED, reason=reason) for n in names)


def early_trigger(pack: EvidencePack, settings: ReviewerSettings) -> str | None:
    """Why the challenger starts together with fresh-eyes, or None."""
    challenger = settings.challenger
    match challenger.mode:
        case ChallengerMode.OFF:
            return None
        case ChallengerMode.ALWAYS:
            return "challenger mode: always"
        case ChallengerMode.AUTO:
            pass
        case _ as unreachable:
            assert_never(unreachable)
    if pack.risk.lane in challenger.lanes:
        return f"lane {pack.risk.lane.value}"
    authorship = pack.authorship
    if authorship.ai_assisted and authorship.ai_commit_ratio >= challenger.ai_commit_ratio:
        return (
            f"AI-assisted PR ({authorship.ai_commit_ratio:.0%} of commits, threshold "
            f"{challenger.ai_commit_ratio:.0%})"
        )
    return None


def late_trigger_allowed(settings: ReviewerSettings) -> bool:
    """Whether an uncertain severe fresh-eyes finding may still start the challenger."""
    return settings.challenger.mode is ChallengerMode.AUTO


def plan_units(pack: EvidencePack, diff: Diff, settings: ReviewerSettings) -> Units:
    """The whole PR, or (oversized, chunk mode) each subsystem part within the budget."""
    oversize = pack.diff.oversize
    excluded = frozenset(n.path for n in pack.diff.not_reviewed)
    if not oversize.oversized:
        if not excluded:
            return Units(reviewable=(Unit("", diff.raw, None),))
        shown = frozenset(f.path for f in diff.files) - excluded
        return Units(
            reviewable=(Unit("", drop_files(diff.raw, excluded), shown),), reviewed_files=shown
        )
    parts = [p for p in oversize.split if p.estimated_tokens <= oversize.threshold_tokens]
    units = tuple(
        Unit(f":{p.subsystem}", select_files(diff.raw, frozenset(p.files)), frozenset(p.files))
        for p in parts
    )
    reviewed = frozenset(f for p in parts for f in p.files)
    policy_skip = ReviewerRun(
        name="policy_verifiers",
        status=ReviewerStatus.SKIPPED,
        reason="oversized PR reviewed by subsystem chunks: policy verifiers judge the whole PR",
    )
    if units:
        return Units(reviewable=units, policy_skip=policy_skip, reviewed_files=reviewed)
    reason = "oversized PR: no subsystem part fits the token budget on its own"
    return Units(
        reviewable=(),
        skipped=(
            ReviewerRun(name="fresh_eyes", status=ReviewerStatus.SKIPPED, reason=reason),
            ReviewerRun(name="challenger", status=ReviewerStatus.SKIPPED, reason=reason),
            policy_skip,
        ),
        reviewed_files=frozenset(),
    )


def files_not_reviewed(
    pack: EvidencePack, diff: Diff, *, reviewed: frozenset[str] | None
) -> tuple[str, ...]:
    """Touched files no AI reviewer saw: outside the reviewed chunks, or without a patch.

    ``reviewed`` None with an oversized pack means AI review was skipped for size: every file.
    """
    skipped_for_size = reviewed is None and pack.diff.oversize.oversized
    listed = {n.path for n in pack.diff.not_reviewed}  # listed with their reason elsewhere
    out = []
    for touched in pack.diff.touched_files:
        if touched.path in listed:
            continue
        outside = reviewed is not None and touched.path not in reviewed
        if skipped_for_size or outside or not touched.patch_available:
            out.append(touched.path)
    known = {t.path for t in pack.diff.touched_files}
    out += [
        f.path
        for f in diff.files
        if not f.patch_available and f.path not in known and f.path not in listed
    ]
    return tuple(out)
