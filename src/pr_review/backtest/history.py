"""The pull requests merged into a branch, read from its first-parent history.

Two shapes are recognized, newest first:

- a merge commit (two or more parents): the PR is ``first parent...second parent``, so its
  base is the merge base of the two parents and its head the second parent;
- a squash commit whose subject ends in ``(#N)`` (GitHub's squash and rebase-squash
  messages): the PR is ``parent...commit``.

Other first-parent commits (direct pushes) are not pull requests and are left out. Every git
command goes through :func:`pr_review.sources.git.git` (argv list, timeout).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from pr_review.errors import UserError
from pr_review.sources.git import git, git_ok

_FIELD = "\x1f"
_FORMAT = "%H%x1f%P%x1f%cI%x1f%B"
_SQUASH = re.compile(r"\s*\(#(\d+)\)\s*$")
_MERGE_PR = re.compile(r"^Merge pull request #(\d+)\b")
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


class MergeKind(StrEnum):
    """How the PR reached the branch."""

    MERGE = "merge"
    SQUASH = "squash"


@dataclass(frozen=True)
class MergedPR:
    """One pull request found in the history, before review."""

    kind: MergeKind
    commit: str
    """The merge or squash commit on the branch."""
    base: str
    """What the review diffs against (``base...head``): the first parent / the parent."""
    head: str
    """The PR's last commit: the second parent / the squash commit itself."""
    number: int | None
    title: str
    body: str
    merged_at: datetime


@dataclass(frozen=True)
class Selection:
    """Which PRs to take: the newest ``last``, or every one merged at or after ``since``."""

    last: int | None = None
    since: datetime | None = None

    def describe(self) -> str:
        """``last 100`` or ``since 2024-01-31``."""
        if self.since is not None:
            return f"since {self.since.date().isoformat()}"
        return f"last {self.last}"


def parse_since(text: str) -> datetime:
    """``--since``: a date (``2024-01-31``) or an ISO date-time; naive means UTC."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise UserError(
            f"--since {text!r} is not a date. Use YYYY-MM-DD (e.g. 2024-01-31) or an ISO "
            "date-time (2024-01-31T12:00:00+00:00)."
        ) from exc
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def check_repository(repo: Path) -> None:
    """A usable, complete (not shallow) git repository, or a one-line error with the fix."""
    if not repo.is_dir():
        raise UserError(f"--repo {repo} is not a directory. Pass the path of a git clone.")
    result = git(repo, "rev-parse", "--is-shallow-repository")
    if not result.ok:
        raise UserError(
            f"--repo {repo} is not a git repository. Pass the path of a git clone "
            "(a directory with a .git)."
        )
    if result.text().strip() == "true":
        raise UserError(
            f"{repo} is a shallow clone, so merged PRs and their bases are missing from its "
            "history. Run `git fetch --unshallow` there (or clone without --depth), then retry."
        )


def resolve_branch(repo: Path, branch: str) -> str:
    """The sha of ``branch`` (a branch, tag or any commit name), or a one-line error."""
    result = git(
        repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{branch}^{{commit}}"
    )
    sha = result.text().strip()
    if not result.ok or not _SHA.match(sha):
        raise UserError(
            f"--branch {branch!r} is not a branch of {repo}. Pass the branch PRs merge into "
            "(`git branch -a` lists them; e.g. --branch master or --branch origin/main)."
        )
    return sha


def find_merged_prs(repo: Path, branch: str, selection: Selection) -> tuple[MergedPR, ...]:
    """The PRs merged into ``branch`` that ``selection`` takes, newest first."""
    tip = resolve_branch(repo, branch)
    out = git_ok(
        repo, "log", "--first-parent", "--no-color", "-z", f"--format={_FORMAT}", tip, "--"
    )
    found: list[MergedPR] = []
    for record in out.decode("utf-8", errors="replace").split("\0"):
        pr = _parse(record)
        if pr is None:
            continue
        if selection.since is not None and pr.merged_at < selection.since:
            continue  # committer dates need not be monotonic, so read on
        found.append(pr)
        if selection.last is not None and len(found) >= selection.last:
            break
    if not found:
        where = f" merged {selection.describe()}" if selection.since is not None else ""
        raise UserError(
            f"no merged pull requests{where} in the first-parent history of {branch!r} "
            "(merge commits, or squash commits whose subject ends in (#N)). Pass the branch "
            "PRs merge into with --branch" + (", or an earlier --since." if where else ".")
        )
    return tuple(found)


def _parse(record: str) -> MergedPR | None:
    parts = record.split(_FIELD, 3)
    if len(parts) != 4 or not _SHA.match(parts[0].strip()):
        return None
    sha, parents_text, date, message = parts
    sha = sha.strip()
    parents = parents_text.split()
    merged_at = datetime.fromisoformat(date.strip())
    subject, _, rest = message.strip("\n").partition("\n")
    rest = rest.strip("\n")
    if len(parents) >= 2:
        number_match = _MERGE_PR.match(subject)
        title, _, body = rest.partition("\n")
        # GitHub's merge message: "Merge pull request #N from owner/branch", blank, PR title.
        if number_match is None or not title.strip():
            title, body = subject, rest
        return MergedPR(
            kind=MergeKind.MERGE,
            commit=sha,
            base=parents[0],
            head=parents[1],
            number=int(number_match.group(1)) if number_match else None,
            title=title.strip(),
            body=body.strip("\n"),
            merged_at=merged_at,
        )
    squash = _SQUASH.search(subject)
    if len(parents) == 1 and squash is not None:
        return MergedPR(
            kind=MergeKind.SQUASH,
            commit=sha,
            base=parents[0],
            head=sha,
            number=int(squash.group(1)),
            title=subject[: squash.start()].strip(),
            body=rest,
            merged_at=merged_at,
        )
    return None
