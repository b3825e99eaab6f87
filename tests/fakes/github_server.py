"""A loopback HTTP server speaking the GitHub REST API for the endpoints this project uses.

Responses have GitHub's shapes, and every ``url`` field and pagination ``Link`` header uses
the server's own base URL (PyGithub refuses links to another host). State (comments, check
runs, statuses, labels, reactions, events, reviews) is kept in plain attributes that tests
assert on. Failures are scripted with :meth:`FakeGitHub.fail`.

Usage::

    with FakeGitHub("octo/demo") as gh:
        gh.add_pull(FakePull(number=7, head_sha=..., base_sha=..., diff=...))
        ... run the action with GITHUB_API_URL=gh.base_url ...
        assert len(gh.comments) == 1
"""

from __future__ import annotations

import base64
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

BOT = {"login": "github-actions[bot]", "id": 41898282, "type": "Bot"}


def user(login: str) -> dict[str, Any]:
    """A user object; logins ending in ``[bot]`` are bots."""
    return {
        "login": login,
        "id": abs(hash(login)) % 10**8,
        "type": "Bot" if login.endswith("[bot]") else "User",
    }


@dataclass
class FakePull:
    """One pull request held by the server."""

    number: int
    head_sha: str
    base_sha: str
    title: str = "A change"
    body: str = ""
    author: str = "alice"
    head_ref: str = "feature"
    base_ref: str = "main"
    draft: bool = False
    state: str = "open"
    labels: list[str] = field(default_factory=list)
    fork: bool = False
    diff: str = ""
    diff_too_large: bool = False
    """Answer the raw diff with GitHub's 406 (over 300 files / 20,000 lines)."""
    files: list[dict[str, Any]] = field(default_factory=list)
    commits: list[dict[str, Any]] = field(default_factory=list)
    merged_at: str | None = None
    updated_at: str = "2026-01-01T00:00:00Z"


@dataclass
class Failure:
    """A scripted failure: the next ``times`` matching requests get ``status``."""

    method: str
    path: re.Pattern[str]
    status: int
    body: dict[str, Any]
    times: int
    headers: dict[str, str] = field(default_factory=dict)


class FakeGitHub:
    """The server and its state."""

    def __init__(self, repository: str = "octo/demo", *, prefix: str = "") -> None:
        self.repository = repository
        self.prefix = prefix
        """A path prefix such as ``/api/v3`` (GitHub Enterprise Server)."""
        self.pulls: dict[int, FakePull] = {}
        self.issues: dict[int, dict[str, Any]] = {}
        self.trees: dict[str, dict[str, str | bytes]] = {}
        """Commit sha -> path -> content (text, or bytes for a file in another encoding)."""
        self.permissions: dict[str, str] = {}
        self.labels: dict[str, dict[str, Any]] = {}
        self.review_comment_reactions: dict[int, list[dict[str, Any]]] = {}
        self.resolved_threads: set[int] = set()
        self.resolved_by: dict[int, str] = {}
        """Root comment id -> the GraphQL login (no ``[bot]``) that resolved the thread."""
        """Root inline comment ids whose review thread is resolved (GraphQL)."""
        self.graphql_calls: list[dict[str, Any]] = []
        """Inline comment id -> its reactions (``content``, ``user``)."""
        """Repository labels by name (``name``, ``color``, ``description``)."""
        self.identity: str | None = None
        """The login ``GET /user`` returns; None answers 403 like an installation token."""
        self.comments: list[dict[str, Any]] = []
        self.review_comments: list[dict[str, Any]] = []
        self.reviews: list[dict[str, Any]] = []
        self.check_runs: list[dict[str, Any]] = []
        self.check_run_patches: list[dict[str, Any]] = []
        self.statuses: list[dict[str, Any]] = []
        self.reactions: list[dict[str, Any]] = []
        self.events: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[tuple[str, str]] = []
        self.failures: list[Failure] = []
        self.check_runs_forbidden = False
        self.statuses_forbidden = False
        self.bad_anchor: tuple[str, int] | None = None
        """``(path, line)`` GitHub answers 422 for, as if it were outside the diff."""
        self.commenter = BOT
        self.move_head: tuple[int, str] | None = None
        """``(reads, sha)``: after that many JSON reads of a PR, its head becomes ``sha``
        (a push while the review runs)."""
        self.pull_reads = 0
        self.git_dir: Path | None = None
        """A git repository that answers the compare API (None: every compare is a 404)."""
        self._ids = 1000
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def __enter__(self) -> FakeGitHub:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        """What GITHUB_API_URL should be."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.prefix}"

    # -- scripting ----------------------------------------------------------------------------

    def add_pull(self, pull: FakePull) -> None:
        """Serve ``pull`` (and the issue it is)."""
        self.pulls[pull.number] = pull

    def fail(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        times: int = 1,
        message: str = "scripted failure",
        headers: dict[str, str] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        """Answer the next ``times`` matching requests with ``status``."""
        body: dict[str, Any] = {"message": message}
        if errors:
            body["errors"] = errors
        self.failures.append(
            Failure(method, re.compile(path_regex), status, body, times, headers or {})
        )

    def label_pull(self, number: int, label: str, actor: str) -> None:
        """``actor`` adds ``label`` to the PR (recorded as an issue event)."""
        self.pulls[number].labels.append(label)
        self.events.setdefault(number, []).append(
            {
                "id": self.next_id(),
                "event": "labeled",
                "actor": user(actor),
                "label": {"name": label, "color": "ededed"},
                "created_at": "2026-01-01T00:00:00Z",
            }
        )

    def reply_inline(self, comment_id: int, body: str, login: str) -> dict[str, Any]:
        """``login`` replies in the thread of inline comment ``comment_id``."""
        parent = next(c for c in self.review_comments if c["id"] == comment_id)
        reply = {
            "id": self.next_id(), "pull_number": parent["pull_number"], "body": body,
            "path": parent.get("path", ""), "line": parent.get("line"), "user": user(login),
            "in_reply_to_id": comment_id, "commit_id": parent.get("commit_id"),
        }  # fmt: skip
        self.review_comments.append(reply)
        return reply

    def react_inline(self, comment_id: int, content: str, login: str) -> None:
        """``login`` reacts to inline comment ``comment_id`` (``-1`` is a thumbs-down)."""
        self.review_comment_reactions.setdefault(comment_id, []).append(
            {"id": self.next_id(), "content": content, "user": user(login)}
        )

    def resolve_as(self, comment_id: int, login: str) -> None:
        """``login`` resolves the review thread started by inline comment ``comment_id``."""
        self.resolved_threads.add(comment_id)
        self.resolved_by[comment_id] = login

    def add_comment(self, number: int, body: str, login: str) -> dict[str, Any]:
        """A conversation comment written by ``login``."""
        comment = self._comment(number, body, user(login))
        self.comments.append(comment)
        return comment

    def next_id(self) -> int:
        """A fresh object id."""
        with self._lock:
            self._ids += 1
            return self._ids

    def url(self, path: str) -> str:
        """An absolute API URL on this server."""
        return f"{self.base_url}{path}"

    def repo_url(self, path: str = "") -> str:
        """An absolute URL under the repository."""
        return self.url(f"/repos/{self.repository}{path}")

    def _comment(self, number: int, body: str, author: dict[str, Any]) -> dict[str, Any]:
        cid = self.next_id()
        return {
            "id": cid,
            "issue_number": number,
            "body": body,
            "user": author,
            "url": self.repo_url(f"/issues/comments/{cid}"),
            "html_url": f"https://github.example/{self.repository}/pull/{number}#issuecomment-{cid}",
            "issue_url": self.repo_url(f"/issues/{number}"),
            "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        }

    # -- representations ----------------------------------------------------------------------

    def pull_json(self, p: FakePull) -> dict[str, Any]:
        """``GET /pulls/N``."""
        owner = p.author if p.fork else self.repository.split("/")[0]
        head_repo = f"{owner}/{self.repository.split('/')[1]}" if p.fork else self.repository
        return {
            "url": self.repo_url(f"/pulls/{p.number}"),
            "id": p.number * 10,
            "number": p.number,
            "state": p.state,
            "title": p.title,
            "body": p.body,
            "draft": p.draft,
            "merged": False,
            "html_url": f"https://github.example/{self.repository}/pull/{p.number}",
            "issue_url": self.repo_url(f"/issues/{p.number}"),
            "user": user(p.author),
            "labels": [{"name": n, "color": "ededed"} for n in p.labels],
            "head": {
                "ref": p.head_ref,
                "sha": p.head_sha,
                "repo": self._repo_json(head_repo, p.fork),
            },
            "base": {
                "ref": p.base_ref,
                "sha": p.base_sha,
                "repo": self._repo_json(self.repository, False),
            },
            "changed_files": len(p.files) if p.files else None,
            "merged_at": p.merged_at,
            "updated_at": p.updated_at,
        }

    def _repo_json(self, full_name: str, fork: bool) -> dict[str, Any]:
        return {
            "full_name": full_name,
            "name": full_name.split("/")[1],
            "fork": fork,
            "url": self.url(f"/repos/{full_name}"),
        }


def _handler(gh: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    from tests.fakes.github_routes import route

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            path = unquote(parts.path)
            if gh.prefix and path.startswith(gh.prefix):
                path = path[len(gh.prefix) :]
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            with gh._lock:
                gh.requests.append((method, path))
            reply = _scripted(gh, method, path) or route(
                gh, method, path, query, body, dict(self.headers)
            )
            status, payload, headers = reply
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            ctype = "text/plain" if isinstance(payload, bytes) else "application/json"
            self.send_header("Content-Type", f"{ctype}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def do_PATCH(self) -> None:
            self._serve("PATCH")

        def do_PUT(self) -> None:
            self._serve("PUT")

        def do_DELETE(self) -> None:
            self._serve("DELETE")

    return Handler


Reply = tuple[int, Any, dict[str, str]]


def _scripted(gh: FakeGitHub, method: str, path: str) -> Reply | None:
    with gh._lock:
        for failure in gh.failures:
            if failure.times > 0 and failure.method == method and failure.path.search(path):
                failure.times -= 1
                return failure.status, failure.body, failure.headers
    return None


def b64(text: str | bytes) -> str:
    """Base64 of UTF-8 text (or of raw bytes), as the contents API sends it."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return base64.b64encode(raw).decode("ascii")
