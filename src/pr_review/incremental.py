"""Incremental re-review: which files the model sees again, which findings carry over.

A previous review of the same PR (its state: reviewed head, base, configuration and the model's
findings) lets the next one send only the files changed since the reviewed head. The decision
is a pure function of the previous state, the PR and a :class:`History` that answers one
question about commits; the CLI answers it with git, the Action with GitHub's compare API.

Files no model reviewed last time (AI review skipped, left out by a cost cap or the token
budget) are reviewed again with the changed ones.

A full review instead, with the reason in the packet, when: ``force``; no previous state; the
configuration changed; the previous state lost findings to its size cap; the old head is not
an ancestor of the new one (force-push, rebase) or cannot be found; or the base moved and
changed files of this PR that did not change since the reviewed head (their diff changed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pr_review.schema.enums import FindingSource
from pr_review.schema.finding import CandidateFinding
from pr_review.schema.pack import EvidencePack
from pr_review.sources.model import PullRequest
from pr_review.synthesis.memory import ReviewMemory

MODEL_SOURCES = frozenset({FindingSource.FRESH_EYES, FindingSource.CHALLENGER})


class History(Protocol):
    """What incremental re-review asks about commits."""

    def changed_since(self, old: str, new: str) -> frozenset[str] | None:
        """Paths that differ between ``old`` and ``new`` when ``old`` is an ancestor of
        ``new``; None when ``old`` is unknown or not an ancestor."""
        ...


@dataclass(frozen=True)
class Incremental:
    """What this review does with the previous one."""

    only: frozenset[str] | None
    """Files the model reviews again; None: a full review."""
    carried: tuple[CandidateFinding, ...] = ()
    """The model's findings on files not changed since the reviewed head, kept as they were."""
    note: str = ""
    """What was re-reviewed, or why the review is full (empty: no previous review)."""


def decide(
    previous: ReviewMemory | None,
    pr: PullRequest,
    *,
    history: History | None,
    config_hash: str,
    force: bool = False,
    pack: EvidencePack | None = None,
) -> Incremental:
    """Incremental when safe (see the module docstring), else a full review and why."""
    if previous is None or not previous.head_sha:
        return Incremental(only=None)
    if history is None:
        return Incremental(
            only=None, note="full review: no commit history to compare with the reviewed head"
        )
    why = _full_review_reason(previous, pr, history, config_hash, force)
    if why is not None:
        return Incremental(only=None, note=f"full review: {why}")
    touched = frozenset(f.path for f in pr.diff.files) | frozenset(
        f.old_path for f in pr.diff.files if f.old_path
    )
    changed = history.changed_since(previous.head_sha, pr.head_sha) or frozenset()
    base_changed = _base_changes(previous, pr, history)
    if base_changed is None:
        return Incremental(
            only=None, note="full review: the previous base commit is no longer reachable"
        )
    moved = (base_changed & touched) - changed
    if moved:
        return Incremental(
            only=None,
            note=f"full review: the base moved and changed {len(moved)} file(s) of this PR "
            "that did not change since the last review (their diff changed)",
        )
    skipped = {n.path for n in pack.diff.not_reviewed} if pack is not None else set()
    touched = frozenset(p for p in touched if p not in skipped)  # never sent to a model
    unseen = (frozenset(previous.unreviewed) & touched) - changed  # no model saw them yet
    only = frozenset(p for p in touched if p in changed) | unseen
    carried = tuple(c for c in previous.carried if c.file not in only and c.file in touched)
    note = (
        f"re-reviewed {len(only)} of {len(touched)} file(s), changed since "
        f"`{previous.head_sha[:12]}`"
        + (f" or {len(unseen)} not reviewed by a model last time" if unseen else "")
        + f"; {len(carried)} model finding(s) on untouched files carried over"
    )
    return Incremental(only=only, carried=carried, note=note)


def _full_review_reason(
    previous: ReviewMemory,
    pr: PullRequest,
    history: History,
    config_hash: str,
    force: bool,
) -> str | None:
    unreachable = (
        f"the reviewed head `{previous.head_sha[:12]}` is not an ancestor of the new head "
        "(force-push or rebase), or is not in this repository (a review of another PR)"
    )
    checks: tuple[tuple[Callable[[], bool], str], ...] = (
        (lambda: force, "forced"),
        (
            lambda: previous.config_hash != config_hash,
            "the configuration changed since the last review",
        ),
        (
            lambda: not previous.carried_complete,
            "the previous review's findings did not all fit its state",
        ),
        (lambda: previous.head_sha == pr.head_sha, "same head as the last review"),
        (lambda: history.changed_since(previous.head_sha, pr.head_sha) is None, unreachable),
    )
    return next((why for failed, why in checks if failed()), None)


def _base_changes(
    previous: ReviewMemory, pr: PullRequest, history: History
) -> frozenset[str] | None:
    """Paths changed by the base moving; empty when it did not move."""
    if not previous.base_sha or not pr.base_sha or previous.base_sha == pr.base_sha:
        return frozenset()
    return history.changed_since(previous.base_sha, pr.base_sha)


def model_findings(candidates: Sequence[CandidateFinding]) -> tuple[CandidateFinding, ...]:
    """The candidates a later review can carry over: the AI reviewers' own findings."""
    return tuple(
        c for c in candidates if c.source in MODEL_SOURCES and c.producer != "injection_guard"
    )
