"""The pull request as the rest of the pipeline sees it: plain frozen values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pr_review.sources.diff import Diff


class RepoTree(Protocol):
    """Read access to the files of one revision of the repository."""

    def paths(self) -> frozenset[str]:
        """Every file path in the revision (repository-relative, ``/``-separated)."""
        ...

    def read(self, path: str) -> str | None:
        """The file's text (undecodable bytes replaced), or None when it does not exist."""
        ...


@dataclass(frozen=True)
class MemoryTree:
    """A :class:`RepoTree` held in memory (tests, and sources that fetch files eagerly)."""

    files: dict[str, str] = field(default_factory=dict)

    def paths(self) -> frozenset[str]:
        """Every path held."""
        return frozenset(self.files)

    def read(self, path: str) -> str | None:
        """The held text, or None."""
        return self.files.get(path)


@dataclass(frozen=True)
class Commit:
    """One commit of the pull request."""

    sha: str
    author_name: str
    author_email: str
    message: str
    trailers: tuple[tuple[str, str], ...] = ()
    """``(key, value)`` pairs from the message's last paragraph, keys as written."""
    committer_name: str = ""
    author_login: str | None = None
    """The forge account of the author, when the source knows it (GitHub)."""


@dataclass(frozen=True)
class IssueDetails:
    """Title, body and labels of a linked issue, when the source can fetch them."""

    number: int
    title: str
    body: str
    labels: tuple[str, ...] = ()
    repository: str | None = None


@dataclass(frozen=True)
class PullRequest:
    """Everything a review needs to know about one pull request."""

    title: str
    body: str
    diff: Diff
    commits: tuple[Commit, ...]
    base_tree: RepoTree
    """The base revision: configuration, CODEOWNERS and instructions are read from here."""
    head_tree: RepoTree
    """The head revision: what the PR would merge."""
    number: int = 0
    url: str = ""
    labels: tuple[str, ...] = ()
    author: str | None = None
    base_ref: str = ""
    head_ref: str = ""
    base_sha: str = ""
    head_sha: str = ""
    is_fork: bool = False
    repository: str | None = None
    """``owner/name`` when known."""
    web_url: str | None = None
    """Base URL for links to files at the head (``https://github.com/o/r``), when known."""
    issues: tuple[IssueDetails, ...] = ()
    """Linked issues the source already fetched (GitHub); empty for local reviews."""
