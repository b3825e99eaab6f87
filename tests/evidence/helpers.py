"""Hand-built diffs and pull requests for evidence tests."""

from __future__ import annotations

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.schema.enums import Lane
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import Diff, FileDiff, FileStatus, Hunk
from pr_review.sources.model import Commit, MemoryTree, PullRequest


def file_diff(
    path: str,
    added: list[str] | None = None,
    removed: list[str] | None = None,
    *,
    status: FileStatus = FileStatus.MODIFIED,
    start: int = 1,
    old_path: str | None = None,
) -> FileDiff:
    """One hunk replacing ``removed`` (old lines from ``start``) by ``added`` (new lines)."""
    added = added or []
    removed = removed or []
    hunk = Hunk(
        old_start=start,
        old_length=len(removed),
        new_start=start,
        new_length=len(added),
        section="",
        added=tuple((start + i, t) for i, t in enumerate(added)),
        removed=tuple((start + i, t) for i, t in enumerate(removed)),
    )
    return FileDiff(
        path=path,
        status=status,
        hunks=(hunk,),
        old_path=old_path,
        insertions=len(added),
        deletions=len(removed),
    )


def pull_request(
    files: list[FileDiff],
    *,
    body: str = "A description long enough to state the intent of the change.",
    base: dict[str, str] | None = None,
    head: dict[str, str] | None = None,
    commits: tuple[Commit, ...] = (),
) -> PullRequest:
    """A pull request over in-memory trees."""
    raw = "".join(f"diff --git a/{f.path} b/{f.path}\n" for f in files)
    return PullRequest(
        title="Change",
        body=body,
        diff=Diff(files=tuple(files), raw=raw),
        commits=commits,
        base_tree=MemoryTree(base or {}),
        head_tree=MemoryTree(head or {}),
    )


def lane_and_factors(**kwargs: object) -> tuple[Lane, dict[str, RiskFactor]]:
    """Build the pack of a pull request over in-memory trees (``pull_request``'s arguments)
    with the default configuration: its lane, and its factors by ``factor:severity``."""
    pack = build_pack(pull_request(**kwargs), Config())  # type: ignore[arg-type]
    return pack.risk.lane, {f"{f.factor}:{f.severity}": f for f in pack.risk.factors}
