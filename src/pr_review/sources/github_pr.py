"""A :class:`PullRequest` read from GitHub: metadata, commits, linked issues, diff, trees.

The diff comes from the raw diff endpoint. GitHub refuses it with 406 above 300 files or
20,000 lines; then a local ``git diff`` is used when the checkout has both commits, else the
paginated files API (at most 3,000 files), whose files without a patch are marked
``patch_available=False`` so the packet can say which files no reviewer saw.

Trees (CODEOWNERS, instructions, configuration) are read from the base commit. Nothing here
ever executes code from the pull request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from pr_review import process
from pr_review.errors import SourceError
from pr_review.sources import git as local_git
from pr_review.sources.diff import Diff, FileDiff, FileStatus, parse_diff
from pr_review.sources.github import DiffTooLarge, GitHubApi
from pr_review.sources.github_models import Pull, PullCommit, PullFile
from pr_review.sources.model import Commit, IssueDetails, PullRequest, RepoTree
from pr_review.sources.trailers import parse_trailers

MAX_LINKED_ISSUES = 10
_ISSUE_REF = re.compile(r"(?<![\w/])#(\d{1,7})\b")


class ApiTree:
    """A :class:`RepoTree` of one commit read through the trees and contents APIs, lazily.

    The caches are the only state; the commit never changes.
    """

    def __init__(self, api: GitHubApi, sha: str) -> None:
        self._api = api
        self.sha = sha
        self._paths: frozenset[str] | None = None
        self._texts: dict[str, str | None] = {}

    def paths(self) -> frozenset[str]:
        """Every file path of the commit (GitHub may truncate a huge tree)."""
        if self._paths is None:
            self._paths, _ = self._api.tree_paths(self.sha)
        return self._paths

    def read(self, path: str) -> str | None:
        """The file's text, or None when the commit has no such file."""
        if path not in self._texts:
            known = self._paths
            absent = known is not None and path not in known
            self._texts[path] = None if absent else self._api.file_text(path, self.sha)
        return self._texts[path]


@dataclass(frozen=True)
class DiffSource:
    """Where the diff came from, and what that means for the review (shown in the summary)."""

    kind: str
    """``api``, ``git`` or ``files``."""
    note: str = ""


def read_github_pr(
    api: GitHubApi,
    pull: Pull,
    *,
    workspace: Path | None,
    run: local_git.Runner = process.run,
) -> tuple[PullRequest, DiffSource]:
    """Everything a review needs about ``pull``, read through the API (and the checkout)."""
    diff, source = read_diff(api, pull, workspace=workspace, run=run)
    commits = tuple(_commit(c) for c in api.pull_commits(pull.number))
    body = pull.body or ""
    local = workspace is not None and _has_commits(workspace, (pull.base.sha, pull.head.sha), run)
    base_tree: RepoTree
    head_tree: RepoTree
    if local and workspace is not None:
        base_tree = local_git.GitTree(workspace, pull.base.sha, run=run)
        head_tree = local_git.GitTree(workspace, pull.head.sha, run=run)
    else:
        base_tree, head_tree = ApiTree(api, pull.base.sha), ApiTree(api, pull.head.sha)
    web = pull.html_url.rsplit("/pull/", 1)[0] if "/pull/" in pull.html_url else None
    return (
        PullRequest(
            title=pull.title,
            body=body,
            diff=diff,
            commits=commits,
            base_tree=base_tree,
            head_tree=head_tree,
            number=pull.number,
            url=pull.html_url,
            labels=tuple(label.name for label in pull.labels),
            author=pull.user.login if pull.user else None,
            base_ref=pull.base.ref,
            head_ref=pull.head.ref,
            base_sha=pull.base.sha,
            head_sha=pull.head.sha,
            is_fork=is_fork(pull),
            repository=api.repository,
            web_url=web,
            issues=linked_issues(api, body, own_number=pull.number),
        ),
        source,
    )


def is_fork(pull: Pull) -> bool:
    """True when the head lives in another repository (or its repository was deleted)."""
    head_repo = pull.head.repo
    base_repo = pull.base.repo
    if head_repo is None or base_repo is None:
        return True
    return head_repo.full_name.lower() != base_repo.full_name.lower()


def read_diff(
    api: GitHubApi,
    pull: Pull,
    *,
    workspace: Path | None,
    run: local_git.Runner = process.run,
) -> tuple[Diff, DiffSource]:
    """The raw diff, or on 406 the local git diff, or the files API."""
    try:
        return parse_diff(api.raw_diff(pull.number)), DiffSource("api")
    except DiffTooLarge as exc:
        reason = f"GitHub refused the whole diff ({exc.status}: over 300 files or 20,000 lines)"
    if workspace is not None:
        local = _local_diff(workspace, pull, run)
        if local is not None:
            return local, DiffSource("git", f"{reason}; read from the checkout with git diff")
    files = api.pull_files(pull.number)
    diff = diff_from_files(files)
    note = f"{reason}; read file by file from the files API"
    if pull.changed_files is not None and pull.changed_files > len(files):
        note += f" (GitHub lists {len(files)} of {pull.changed_files} changed files)"
        diff = replace(
            diff,
            problems=(
                *diff.problems,
                f"only {len(files)} of {pull.changed_files} changed files could be listed",
            ),
        )
    return diff, DiffSource("files", note)


def diff_from_files(files: tuple[PullFile, ...]) -> Diff:
    """A :class:`Diff` from the files API; files without a patch keep their counts only."""
    out: list[FileDiff] = []
    chunks: list[str] = []
    problems: list[str] = []
    for f in files:
        status = _STATUS.get(f.status, FileStatus.MODIFIED)
        old = f.previous_filename if status in (FileStatus.RENAMED, FileStatus.COPIED) else None
        if f.patch is None:
            problems.append(f"{f.filename}: GitHub gave no patch (binary or too large)")
            out.append(
                FileDiff(
                    path=f.filename,
                    status=status,
                    old_path=old,
                    patch_available=False,
                    insertions=f.additions,
                    deletions=f.deletions,
                )
            )
            continue
        chunk = _chunk(f, status, old)
        chunks.append(chunk)
        parsed = parse_diff(chunk).files
        out.append(
            replace(parsed[0], status=status, old_path=old)
            if parsed
            else FileDiff(path=f.filename, status=status, old_path=old)
        )
    return Diff(files=tuple(out), raw="".join(chunks), problems=tuple(problems))


_STATUS = {
    "added": FileStatus.ADDED,
    "removed": FileStatus.DELETED,
    "modified": FileStatus.MODIFIED,
    "changed": FileStatus.MODIFIED,
    "unchanged": FileStatus.MODIFIED,
    "renamed": FileStatus.RENAMED,
    "copied": FileStatus.COPIED,
}


def _chunk(f: PullFile, status: FileStatus, old: str | None) -> str:
    """A git-style file chunk around the files API's patch text."""
    before = old or f.filename
    lines = [f"diff --git a/{before} b/{f.filename}"]
    minus, plus = f"--- a/{before}", f"+++ b/{f.filename}"
    if status is FileStatus.ADDED:
        lines.append("new file mode 100644")
        minus = "--- /dev/null"
    elif status is FileStatus.DELETED:
        lines.append("deleted file mode 100644")
        plus = "+++ /dev/null"
    elif old is not None:
        verb = "copy" if status is FileStatus.COPIED else "rename"
        lines += [f"{verb} from {old}", f"{verb} to {f.filename}"]
    patch = f.patch or ""
    if patch.strip():
        lines += [minus, plus, patch.rstrip("\n")]
    return "\n".join(lines) + "\n"


def _local_diff(workspace: Path, pull: Pull, run: local_git.Runner) -> Diff | None:
    """``git diff base...head`` from the checkout, or None when it lacks either commit."""
    if not _has_commits(workspace, (pull.base.sha, pull.head.sha), run):
        return None
    result = local_git.git(
        workspace,
        "diff",
        *local_git.DIFF_OPTIONS,
        f"{pull.base.sha}...{pull.head.sha}",
        "--",
        run=run,
    )
    return parse_diff(result.stdout) if result.ok else None


def _has_commits(workspace: Path, shas: tuple[str, ...], run: local_git.Runner) -> bool:
    for sha in shas:
        result = local_git.git(workspace, "cat-file", "-e", f"{sha}^{{commit}}", run=run)
        if not result.ok:
            return False
    return True


def _commit(c: PullCommit) -> Commit:
    author = c.commit.author
    committer = c.commit.committer
    return Commit(
        sha=c.sha,
        author_name=author.name if author else "",
        author_email=author.email if author else "",
        message=c.commit.message,
        trailers=parse_trailers(c.commit.message),
        committer_name=committer.name if committer else "",
        author_login=c.author.login if c.author else None,
    )


def linked_issues(api: GitHubApi, body: str, *, own_number: int) -> tuple[IssueDetails, ...]:
    """Issues of this repository the PR body references (``#N``), fetched; PRs skipped."""
    numbers: list[int] = []
    for match in _ISSUE_REF.finditer(body):
        n = int(match.group(1))
        if n != own_number and n not in numbers:
            numbers.append(n)
    out: list[IssueDetails] = []
    for n in numbers[:MAX_LINKED_ISSUES]:
        issue = api.issue(n)
        if issue is None or issue.pull_request is not None:
            continue
        out.append(
            IssueDetails(
                number=issue.number,
                title=issue.title,
                body=issue.body or "",
                labels=tuple(label.name for label in issue.labels),
                repository=api.repository,
            )
        )
    return tuple(out)


def require_open(pull: Pull) -> None:
    """Refuse a closed pull request with a clear cause."""
    if pull.state != "open":
        raise SourceError(f"pull request #{pull.number} is {pull.state}; nothing to review.")


COMPARE_FILES_LIMIT = 300
"""GitHub's compare API lists at most 300 files; a comparison that long may be cut."""


class GitHubHistory:
    """Commit questions answered by GitHub's compare API (incremental re-review)."""

    def __init__(self, api: GitHubApi) -> None:
        """Ask through ``api``."""
        self._api = api

    def changed_since(self, old: str, new: str) -> frozenset[str] | None:
        """Files between ``old`` and ``new`` when ``old`` is an ancestor of ``new``.

        None when a commit is unknown (a force-push may have let it be collected), when the
        two diverged, or when the list may be cut at GitHub's 300 files.
        """
        found = self._api.compare(old, new)
        if found is None or found.status not in {"ahead", "identical"}:
            return None
        if len(found.files) >= COMPARE_FILES_LIMIT:
            return None
        names = {f.filename for f in found.files}
        names |= {f.previous_filename for f in found.files if f.previous_filename}
        return frozenset(names)
