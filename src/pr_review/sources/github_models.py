"""GitHub REST response shapes, validated with pydantic at the trust boundary.

Only the fields this project uses are declared; GitHub adds fields freely, so unknown keys
are ignored (``extra="ignore"``) rather than rejected. Every model is frozen: these values flow
from the GitHub source into the action and publishing code unchanged.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Api(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class User(_Api):
    """An account: a person, an organization or a bot."""

    login: str
    type: str = "User"


class Label(_Api):
    """A label on an issue or pull request."""

    name: str


class RepoRef(_Api):
    """A repository as embedded in a pull request's head or base."""

    full_name: str
    fork: bool = False


class Branch(_Api):
    """``pull_request.head`` / ``pull_request.base``."""

    ref: str
    sha: str
    repo: RepoRef | None = None
    """``None`` when the fork was deleted."""


class Pull(_Api):
    """``GET /repos/{o}/{r}/pulls/{n}``."""

    number: int
    title: str = ""
    body: str | None = None
    state: str = "open"
    draft: bool = False
    merged: bool = False
    html_url: str = ""
    url: str = ""
    user: User | None = None
    labels: tuple[Label, ...] = ()
    head: Branch
    base: Branch
    changed_files: int | None = None
    merged_at: str | None = None
    updated_at: str | None = None


class PullFile(_Api):
    """One entry of ``GET …/pulls/{n}/files``; ``patch`` is absent for binary or huge files."""

    filename: str
    status: str
    additions: int = 0
    deletions: int = 0
    patch: str | None = None
    previous_filename: str | None = None


class Comparison(_Api):
    """``GET …/compare/{base}...{head}``: how two commits relate and the files between them."""

    status: str
    """``ahead`` (base is an ancestor of head), ``identical``, ``behind`` or ``diverged``."""
    total_commits: int = 0
    files: tuple[PullFile, ...] = ()


class GitActor(_Api):
    """``commit.author`` / ``commit.committer`` of a git commit."""

    name: str = ""
    email: str = ""


class GitCommitBody(_Api):
    """``commit`` of a pull request commit."""

    message: str = ""
    author: GitActor | None = None
    committer: GitActor | None = None


class PullCommit(_Api):
    """One entry of ``GET …/pulls/{n}/commits``."""

    sha: str
    commit: GitCommitBody
    author: User | None = None


class Issue(_Api):
    """``GET /repos/{o}/{r}/issues/{n}`` (pull requests are issues too)."""

    number: int
    title: str = ""
    body: str | None = None
    labels: tuple[Label, ...] = ()
    pull_request: dict[str, object] | None = None


class IssueComment(_Api):
    """An issue (conversation) comment."""

    id: int
    body: str | None = None
    user: User | None = None
    html_url: str = ""


class ReviewComment(_Api):
    """An inline (review) comment on a pull request."""

    id: int
    body: str = ""
    path: str = ""
    user: User | None = None
    in_reply_to_id: int | None = None
    diff_hunk: str = ""
    """The hunk up to the commented line: its last line is the line commented on."""


class Reaction(_Api):
    """One reaction (``+1``, ``-1``, ``laugh`` ...) and who gave it."""

    content: str
    user: User | None = None


class IssueEvent(_Api):
    """One entry of ``GET …/issues/{n}/events`` (only label events are used)."""

    event: str
    actor: User | None = None
    label: Label | None = None
    created_at: str = ""


class CheckRun(_Api):
    """A check run."""

    id: int
    name: str
    head_sha: str = ""
    status: str = "queued"
    conclusion: str | None = None
    html_url: str | None = None


class CheckRunList(_Api):
    """``GET …/commits/{sha}/check-runs``."""

    total_count: int = 0
    check_runs: tuple[CheckRun, ...] = ()


class TreeEntry(_Api):
    """One entry of a git tree."""

    path: str
    type: str


class Tree(_Api):
    """``GET …/git/trees/{sha}?recursive=1``."""

    sha: str = ""
    tree: tuple[TreeEntry, ...] = ()
    truncated: bool = False


class Content(_Api):
    """``GET …/contents/{path}?ref=`` for a file."""

    type: str = "file"
    encoding: str | None = None
    content: str | None = None
    sha: str = ""
    size: int = 0


class Permission(_Api):
    """``GET …/collaborators/{user}/permission``."""

    permission: str = "none"
    role_name: str | None = Field(default=None, description="maintain/triage are exposed here")


class ReviewThread(_Api):
    """One review thread as GraphQL's ``reviewThreads`` gives it (first comment only)."""

    thread_id: str
    is_resolved: bool
    first_comment_id: int | None
    first_author: str
    resolved_by: str | None = None
