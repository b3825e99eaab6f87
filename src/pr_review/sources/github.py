"""The GitHub REST gateway: the only module that imports :mod:`github` (PyGithub).

PyGithub gives us authentication, ``GITHUB_API_URL`` as its base URL (GitHub Enterprise Server
works), the URL-host check on every followed link, and retries (:class:`GithubRetry`: 5xx,
and 403/429 rate limits waiting for the reset time). Every response is validated into the
frozen models of :mod:`.github_models` at once, so nothing else touches PyGithub objects.

Writes are idempotent: POSTs are not retried blindly by the HTTP layer (a POST that timed out
may still have been applied); :meth:`GitHubApi.create_once` first looks for the thing it is
about to create and only then creates it, and repeats that on a transient failure.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

from github import Auth, Github, GithubException, GithubRetry
from pydantic import BaseModel, ValidationError

from pr_review.errors import GitHubError, GitHubUnreachable
from pr_review.sources import github_models as gm
from pr_review.sources.text import decode_blob

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

DEFAULT_API_URL = "https://api.github.com"
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class GitHubSettings:
    """How to reach GitHub."""

    token: str
    api_url: str = DEFAULT_API_URL
    timeout_s: float = 10
    """Per request (connect and each read). A silent server fails in this time: no read retry."""
    retries: int = 5
    backoff_factor: float = 1.0
    max_rate_limit_wait_s: float = 900
    """A rate limit that resets later than this fails the run instead of waiting."""
    create_attempts: int = 3


class DiffTooLarge(GitHubError):
    """GitHub refused the raw diff with 406 (over 300 files or 20,000 lines)."""


def connect(settings: GitHubSettings, repository: str) -> GitHubApi:
    """A gateway for ``owner/name`` through the API at ``settings.api_url``."""
    retry = GithubRetry(
        total=settings.retries,
        backoff_factor=settings.backoff_factor,
        # 429 is a documented rate-limit status PyGithub does not list (403 is appended by it).
        status_forcelist=[429, *range(500, 600)],
        # A refused connection is retried once (a blip); an unanswered read is not retried, so
        # an unreachable GITHUB_API_URL fails in about one timeout, not minutes.
        connect=1,
        read=0,
        allowed_methods=_IDEMPOTENT,
        max_rate_limit_wait=settings.max_rate_limit_wait_s,
    )
    client = Github(
        auth=Auth.Token(settings.token),
        base_url=settings.api_url.rstrip("/"),
        timeout=int(settings.timeout_s),
        per_page=100,
        retry=retry,
        # Our run makes a few dozen requests and a handful of writes, far below the secondary
        # limits; throttling would only slow every run (rate limits are handled by the retry).
        seconds_between_requests=None,
        seconds_between_writes=None,
    )
    return GitHubApi(
        client, repository, create_attempts=settings.create_attempts, api_url=settings.api_url
    )


class GitHubApi:
    """Typed access to the endpoints this project uses, for one repository."""

    def __init__(
        self,
        client: Github,
        repository: str,
        *,
        create_attempts: int = 3,
        sleep: Callable[[float], None] = time.sleep,
        api_url: str = DEFAULT_API_URL,
    ) -> None:
        self._api_url = api_url
        self._client = client
        self._requester = client.requester
        self.repository = repository
        self._repo = f"/repos/{repository}"
        self._create_attempts = create_attempts
        self._sleep = sleep

    # -- low level -------------------------------------------------------------------------

    def request(
        self,
        verb: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[dict[str, Any], Any]:
        """One request; GitHub's refusals become :class:`GitHubError` with the status."""
        try:
            return self._requester.requestJsonAndCheck(
                verb,
                url,
                parameters=dict(params) if params else None,
                headers=dict(headers) if headers else None,
                input=body,
            )
        except GithubException as exc:
            raise GitHubError(_describe(verb, url, exc), status=exc.status) from exc
        except Exception as exc:  # requests/urllib3 errors after retries are exhausted
            raise GitHubUnreachable(
                f"cannot reach the GitHub API at {self._api_url} ({verb} {url}: "
                f"{type(exc).__name__}): check GITHUB_API_URL (unset for github.com; "
                "https://HOST/api/v3 for GitHub Enterprise Server) and the runner's network."
            ) from exc

    def get(self, url: str, model: type[M], **params: Any) -> M:
        """GET one object and validate it."""
        _, data = self.request("GET", url, params=params or None)
        return _validate(model, data, url)

    def get_all(
        self,
        url: str,
        model: type[M],
        *,
        key: str | None = None,
        limit: int = 10_000,
        **params: Any,
    ) -> tuple[M, ...]:
        """GET every page (following ``Link: rel="next"``), up to ``limit`` items."""
        out: list[M] = []
        next_url: str | None = url
        query: dict[str, Any] | None = {"per_page": 100, **params}
        while next_url is not None and len(out) < limit:
            headers, data = self.request("GET", next_url, params=query)
            items = data.get(key, []) if key and isinstance(data, dict) else data
            out.extend(_validate(model, item, next_url) for item in items or [])
            next_url = _next_link(headers)
            query = None  # the next link carries the query
        return tuple(out[:limit])

    def create_once(self, find: Callable[[], T | None], create: Callable[[], T]) -> T:
        """Create something unless it exists; on a transient failure look again, then retry.

        A POST that failed with 5xx or a rate limit may have been applied anyway, so the
        object is looked up before every attempt: a retried write never duplicates.
        """
        for attempt in range(1, self._create_attempts + 1):
            existing = find()
            if existing is not None:
                return existing
            try:
                return create()
            except GitHubError as exc:
                if attempt == self._create_attempts or not _transient(exc):
                    raise
                self._sleep(min(2.0 ** (attempt - 1), 8.0))
        raise AssertionError("unreachable")  # pragma: no cover

    # -- repository and pull request ---------------------------------------------------------

    def identity(self) -> str | None:
        """The login behind the token, or None when GitHub will not say (installation tokens).

        An API that does not answer at all is an error here already: waiting for the next
        request to time out too would double the time to the message.
        """
        try:
            return self.get("/user", gm.User).login
        except GitHubUnreachable:
            raise
        except GitHubError:
            return None

    def pull(self, number: int) -> gm.Pull:
        """The pull request as it is now."""
        return self.get(f"{self._repo}/pulls/{number}", gm.Pull)

    def raw_diff(self, number: int) -> str:
        """The PR's unified diff; :class:`DiffTooLarge` on GitHub's 406."""
        try:
            _, data = self.request(
                "GET",
                f"{self._repo}/pulls/{number}",
                headers={"Accept": "application/vnd.github.v3.diff"},
            )
        except GitHubError as exc:
            if exc.status == 406:
                raise DiffTooLarge(str(exc), status=406) from exc
            raise
        if data is None:
            return ""
        return str(data["data"]) if isinstance(data, dict) and "data" in data else ""

    def compare(self, base: str, head: str) -> gm.Comparison | None:
        """How ``base`` relates to ``head`` and the files between; None when either is unknown."""
        try:
            return self.get(f"{self._repo}/compare/{base}...{head}", gm.Comparison)
        except GitHubError as exc:
            if exc.status in (404, 422):
                return None
            raise

    def pull_files(self, number: int) -> tuple[gm.PullFile, ...]:
        """Changed files with their patches (GitHub lists at most 3,000)."""
        return self.get_all(f"{self._repo}/pulls/{number}/files", gm.PullFile, limit=3000)

    def pull_commits(self, number: int) -> tuple[gm.PullCommit, ...]:
        """The PR's commits (GitHub lists at most 250)."""
        return self.get_all(f"{self._repo}/pulls/{number}/commits", gm.PullCommit, limit=250)

    def issue(self, number: int) -> gm.Issue | None:
        """An issue of this repository, or None when it does not exist or is not readable."""
        try:
            return self.get(f"{self._repo}/issues/{number}", gm.Issue)
        except GitHubError as exc:
            if exc.status in (403, 404, 410):
                return None
            raise

    def issue_events(self, number: int) -> tuple[gm.IssueEvent, ...]:
        """Events of an issue or PR, oldest first (labeled/unlabeled tell who added a label)."""
        return self.get_all(f"{self._repo}/issues/{number}/events", gm.IssueEvent)

    def permission(self, login: str) -> str:
        """``admin``, ``maintain``, ``write``, ``triage``, ``read`` or ``none``."""
        try:
            perm = self.get(
                f"{self._repo}/collaborators/{quote(login, safe='')}/permission", gm.Permission
            )
        except GitHubError as exc:
            if exc.status == 404:
                return "none"
            raise
        return perm.role_name or perm.permission

    # -- labels ---------------------------------------------------------------------------

    def issue_labels(self, number: int) -> tuple[gm.Label, ...]:
        """The labels on issue or PR ``number``."""
        return self.get_all(f"{self._repo}/issues/{number}/labels", gm.Label)

    def label_exists(self, name: str) -> bool:
        """Whether the repository has a label called ``name``."""
        try:
            self.get(f"{self._repo}/labels/{quote(name, safe='')}", gm.Label)
        except GitHubError as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def create_label(self, name: str, color: str, description: str) -> None:
        """Create a repository label (422 when it exists already is not an error: a
        concurrent run created it)."""
        try:
            label = {"name": name, "color": color, "description": description}
            self.request("POST", f"{self._repo}/labels", body=label)
        except GitHubError as exc:
            if exc.status != 422:
                raise

    def add_labels(self, number: int, names: Sequence[str]) -> None:
        """Add labels to issue or PR ``number`` (others are kept)."""
        self.request("POST", f"{self._repo}/issues/{number}/labels", body={"labels": list(names)})

    def remove_label(self, number: int, name: str) -> None:
        """Remove one label from issue or PR ``number`` (already gone is not an error)."""
        try:
            self.request("DELETE", f"{self._repo}/issues/{number}/labels/{quote(name, safe='')}")
        except GitHubError as exc:
            if exc.status != 404:
                raise

    def tree_paths(self, sha: str) -> tuple[frozenset[str], bool]:
        """Every file path at ``sha`` and whether GitHub truncated the listing."""
        tree = self.get(f"{self._repo}/git/trees/{sha}", gm.Tree, recursive="1")
        return frozenset(e.path for e in tree.tree if e.type == "blob"), tree.truncated

    def file_text(self, path: str, ref: str) -> str | None:
        """A file's text at ``ref`` (undecodable bytes replaced), None when it is absent."""
        try:
            content = self.get(f"{self._repo}/contents/{quote(path)}", gm.Content, ref=ref)
        except GitHubError as exc:
            if exc.status == 404:
                return None
            raise
        if content.type != "file":
            return None
        if content.encoding == "base64" and content.content is not None:
            return decode_blob(base64.b64decode(content.content))
        if content.sha:  # files over 1 MB come without content: read the blob
            return self._blob_text(content.sha)
        return None

    def _blob_text(self, sha: str) -> str | None:
        _, data = self.request("GET", f"{self._repo}/git/blobs/{sha}")
        if isinstance(data, dict) and data.get("encoding") == "base64":
            raw = base64.b64decode(str(data.get("content", "")))
            return decode_blob(raw)
        return None

    # -- conversation -------------------------------------------------------------------------

    def comments(self, number: int) -> tuple[gm.IssueComment, ...]:
        """Conversation comments of the PR, oldest first."""
        return self.get_all(f"{self._repo}/issues/{number}/comments", gm.IssueComment)

    def create_comment(self, number: int, body: str) -> gm.IssueComment:
        """Post a conversation comment (callers find-before-create via :meth:`create_once`)."""
        _, data = self.request(
            "POST", f"{self._repo}/issues/{number}/comments", body={"body": body}
        )
        return _validate(gm.IssueComment, data, "created comment")

    def edit_comment(self, comment_id: int, body: str) -> gm.IssueComment:
        """Replace a comment's body."""
        _, data = self.request(
            "PATCH", f"{self._repo}/issues/comments/{comment_id}", body={"body": body}
        )
        return _validate(gm.IssueComment, data, "edited comment")

    def add_reaction(self, comment_id: int, content: str) -> None:
        """React to a conversation comment (GitHub returns the existing one if already there)."""
        self.request(
            "POST",
            f"{self._repo}/issues/comments/{comment_id}/reactions",
            body={"content": content},
        )

    def review_comments(self, number: int) -> tuple[gm.ReviewComment, ...]:
        """Inline comments of the PR."""
        return self.get_all(f"{self._repo}/pulls/{number}/comments", gm.ReviewComment)

    def graphql(self, query: str, variables: Mapping[str, Any]) -> dict[str, Any]:
        """One GraphQL call (``/graphql``, or ``/api/graphql`` on Enterprise Server)."""
        try:
            _, data = self._requester.graphql_query(query, dict(variables))
        except GithubException as exc:
            raise GitHubError(_describe("POST", "/graphql", exc), status=exc.status) from exc
        return data

    def review_threads(self, number: int) -> tuple[gm.ReviewThread, ...]:
        """The PR's review threads: id, resolved or not, and who started each (paginated)."""
        owner, name = self.repository.split("/", 1)
        threads: list[gm.ReviewThread] = []
        after: str | None = None
        for _ in range(50):  # 5,000 threads at most
            data = self.graphql(_THREADS, {"owner": owner, "name": name, "number": number,
                                           "after": after})  # fmt: skip
            page = data["data"]["repository"]["pullRequest"]["reviewThreads"]
            for node in page["nodes"]:
                first = (node.get("comments") or {}).get("nodes") or [{}]
                author = (first[0].get("author") or {}).get("login", "")
                thread = gm.ReviewThread(
                    thread_id=node["id"],
                    is_resolved=bool(node["isResolved"]),
                    first_comment_id=first[0].get("databaseId"),
                    first_author=author,
                    resolved_by=(node.get("resolvedBy") or {}).get("login"),
                )
                threads.append(thread)
            if not page["pageInfo"]["hasNextPage"]:
                break
            after = page["pageInfo"]["endCursor"]
        return tuple(threads)

    def resolve_thread(self, thread_id: str) -> None:
        """Mark one review thread resolved."""
        self.graphql(_RESOLVE, {"id": thread_id})

    def reply_inline(self, number: int, comment_id: int, body: str) -> None:
        """Reply in the thread of inline comment ``comment_id``."""
        url = f"{self._repo}/pulls/{number}/comments/{comment_id}/replies"
        self.request("POST", url, body={"body": body})

    def merged_pulls(self, since: str | None, limit: int = 1000) -> tuple[gm.Pull, ...]:
        """Merged PRs, most recently updated first, updated since ``since`` (ISO date)."""
        out: list[gm.Pull] = []
        url: str | None = f"{self._repo}/pulls"
        query: dict[str, Any] | None = {"state": "closed", "sort": "updated",
                                        "direction": "desc", "per_page": 100}  # fmt: skip
        while url is not None and len(out) < limit:
            headers, data = self.request("GET", url, params=query)
            page = [_validate(gm.Pull, item, url) for item in data or []]
            older = [p for p in page if since and (p.updated_at or "") < since]
            out.extend(p for p in page if p.merged_at and p not in older)
            url = None if older else _next_link(headers)
            query = None
        return tuple(out[:limit])

    def review_comment_reactions(self, comment_id: int) -> tuple[gm.Reaction, ...]:
        """The reactions on one inline comment."""
        return self.get_all(f"{self._repo}/pulls/comments/{comment_id}/reactions", gm.Reaction)

    def create_review(
        self, number: int, commit_sha: str, body: str, comments: Sequence[Mapping[str, Any]]
    ) -> None:
        """Post one COMMENT review carrying every inline comment (all or nothing at GitHub)."""
        self.request(
            "POST",
            f"{self._repo}/pulls/{number}/reviews",
            body={
                "commit_id": commit_sha,
                "body": body,
                "event": "COMMENT",
                "comments": list(comments),
            },
        )

    def create_review_comment(
        self, number: int, commit_sha: str, comment: Mapping[str, Any]
    ) -> None:
        """Post one inline comment on its own."""
        self.request(
            "POST",
            f"{self._repo}/pulls/{number}/comments",
            body={"commit_id": commit_sha, **comment},
        )

    # -- gate -----------------------------------------------------------------------------------

    def find_check_run(self, sha: str, name: str) -> gm.CheckRun | None:
        """The latest check run called ``name`` on ``sha``."""
        listing = self.get(
            f"{self._repo}/commits/{sha}/check-runs",
            gm.CheckRunList,
            check_name=name,
            filter="latest",
        )
        runs = [r for r in listing.check_runs if r.name == name]
        return max(runs, key=lambda r: r.id) if runs else None

    def create_check_run(self, sha: str, name: str, fields: Mapping[str, Any]) -> gm.CheckRun:
        """Create a check run (callers find-before-create via :meth:`create_once`)."""
        _, data = self.request(
            "POST", f"{self._repo}/check-runs", body={"name": name, "head_sha": sha, **fields}
        )
        return _validate(gm.CheckRun, data, "created check run")

    def update_check_run(self, run_id: int, fields: Mapping[str, Any]) -> gm.CheckRun:
        """PATCH a check run (annotations are appended; ``output`` is otherwise replaced)."""
        _, data = self.request("PATCH", f"{self._repo}/check-runs/{run_id}", body=dict(fields))
        return _validate(gm.CheckRun, data, "updated check run")

    def create_status(
        self, sha: str, *, state: str, context: str, description: str, target_url: str | None
    ) -> None:
        """Set a commit status (idempotent: the latest status per context wins)."""
        body: dict[str, Any] = {"state": state, "context": context, "description": description}
        if target_url:
            body["target_url"] = target_url
        self.request("POST", f"{self._repo}/statuses/{sha}", body=body)


def _validate(model: type[M], data: Any, where: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise GitHubError(
            f"unexpected response from {where}: {exc.error_count()} invalid field(s)"
        ) from exc


def _next_link(headers: Mapping[str, str]) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header."""
    link = next((v for k, v in headers.items() if k.lower() == "link"), "")
    for part in link.split(","):
        section = part.split(";")
        if len(section) >= 2 and any(s.strip() == 'rel="next"' for s in section[1:]):
            return section[0].strip().strip("<>")
    return None


def _transient(exc: GitHubError) -> bool:
    """Worth another attempt: a server error, a rate limit, or no response at all."""
    if exc.status is None or exc.status >= 500 or exc.status == 429:
        return True
    # A 403 is a rate limit only when GitHub says so; "not accessible" is final.
    return exc.status == 403 and "rate limit" in str(exc).lower()


def _describe(verb: str, url: str, exc: GithubException) -> str:
    message = ""
    if isinstance(exc.data, dict):
        message = str(exc.data.get("message", ""))
    return f"GitHub refused {verb} {url}: {exc.status} {message}".rstrip()


_THREADS = """
query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved resolvedBy { login }
          comments(first: 1) { nodes { databaseId author { login } } }
        }
      }
    }
  }
}
"""

_RESOLVE = """
mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }
"""
