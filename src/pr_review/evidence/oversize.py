"""Oversize: is the diff beyond what a reviewer (model or human) can take whole?

Two limits, both configurable: estimated tokens of the raw diff (the model's usable
context) and changed lines (what one review can cover well). Beyond either, the pack gets a
blocker and the natural split: one part per subsystem. A third, ``full_analysis_max_lines``
(GitHub's own diff limit), switches the evidence stage to its budgeted mode (see
:mod:`pr_review.evidence.budgeted`); such a diff is oversized whatever the other limits say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pr_review.evidence.settings import OversizeSettings
from pr_review.schema.pack import Blocker, Oversize, SplitSuggestion
from pr_review.sources.diff import FileDiff

PER_LINE_OVERHEAD = 1


def estimate_tokens(chars: int, settings: OversizeSettings) -> int:
    """Estimated tokens of ``chars`` characters of diff."""
    return int(chars / settings.chars_per_token) + 1 if chars else 0


def budgeted(changed_lines: int, settings: OversizeSettings) -> bool:
    """True when the diff is beyond full analysis (the evidence stage's budgeted mode)."""
    return changed_lines > settings.full_analysis_max_lines


def oversize(
    raw: str, files: Sequence[FileDiff], subsystems: Mapping[str, str], settings: OversizeSettings
) -> Oversize:
    """Whether the diff is oversized, how it would split, and which analysis mode it gets."""
    tokens = estimate_tokens(len(raw), settings)
    changed = sum(f.insertions + f.deletions for f in files)
    analysis: Literal["full", "budgeted"] = "budgeted" if budgeted(changed, settings) else "full"
    too_big = (
        tokens > settings.max_diff_tokens
        or changed > settings.max_changed_lines
        or analysis == "budgeted"
    )
    if not too_big:
        return Oversize(
            oversized=False, estimated_tokens=tokens, threshold_tokens=settings.max_diff_tokens
        )
    return Oversize(
        oversized=True,
        estimated_tokens=tokens,
        threshold_tokens=settings.max_diff_tokens,
        split=_split(files, subsystems, settings),
        analysis=analysis,
    )


def _split(
    files: Sequence[FileDiff], subsystems: Mapping[str, str], settings: OversizeSettings
) -> tuple[SplitSuggestion, ...]:
    groups: dict[str, list[FileDiff]] = {}
    for f in files:
        groups.setdefault(subsystems.get(f.path, "root"), []).append(f)
    parts = []
    for name, members in sorted(
        groups.items(), key=lambda kv: -sum(f.insertions + f.deletions for f in kv[1])
    ):
        chars = sum(
            len(t) + PER_LINE_OVERHEAD
            for f in members
            for h in f.hunks
            for _, t in (*h.added, *h.removed)
        )
        parts.append(
            SplitSuggestion(
                subsystem=name,
                files=tuple(f.path for f in members),
                insertions=sum(f.insertions for f in members),
                deletions=sum(f.deletions for f in members),
                estimated_tokens=estimate_tokens(chars, settings),
            )
        )
    return tuple(parts)


def blocker(result: Oversize, changed_lines: int, settings: OversizeSettings) -> Blocker | None:
    """The oversize blocker, or None when the diff fits."""
    if not result.oversized:
        return None
    parts = ", ".join(f"{p.subsystem} ({len(p.files)} files)" for p in result.split)
    return Blocker(
        kind="oversized-diff",
        message=(
            f"The diff is too large to review whole: ~{result.estimated_tokens} tokens "
            f"(limit {settings.max_diff_tokens}), {changed_lines} changed lines "
            f"(limit {settings.max_changed_lines}). AI review goes by units of related files "
            "(reviewers.oversized: chunk) and cannot see across them; verifiers still run."
            + (
                f" Beyond {settings.full_analysis_max_lines} changed lines, content signals "
                "are computed at file level (secrets, access control, migrations); "
                "split the PR for a line-level review."
                if result.analysis == "budgeted"
                else ""
            )
        ),
        recommendation=f"Split the pull request by subsystem: {parts}.",
    )
