"""The endpoints of :class:`tests.fakes.github_server.FakeGitHub`: one function per route."""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from tests.fakes.github_server import BOT, FakeGitHub, Reply, b64, user

Handler = Callable[[FakeGitHub, re.Match[str], dict[str, str], Any, dict[str, str]], Reply]
_ROUTES: list[tuple[str, re.Pattern[str], Handler]] = []
_FORBIDDEN = {"message": "Resource not accessible by integration"}


def _on(method: str, pattern: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _ROUTES.append((method, re.compile(f"^/repos/(?P<repo>[^/]+/[^/]+){pattern}$"), fn))
        return fn

    return register


def route(  # noqa: PLR0917 (the handler passes the request's parts in HTTP order)
    gh: FakeGitHub,
    method: str,
    path: str,
    query: dict[str, str],
    body: Any,
    headers: dict[str, str],
) -> Reply:
    """Dispatch one request."""
    if path == "/user" and method == "GET":
        if gh.identity is None:
            return 403, _FORBIDDEN, {}
        return 200, user(gh.identity), {}
    if path in ("/graphql", "/api/graphql") and method == "POST":
        return _graphql(gh, body)
    for verb, pattern, fn in _ROUTES:
        match = pattern.match(path)
        if verb == method and match:
            if match.group("repo") != gh.repository:
                return 404, {"message": "Not Found"}, {}
            return fn(gh, match, query, body, headers)
    return 404, {"message": f"Not Found: {method} {path}"}, {}


def _page(gh: FakeGitHub, path: str, items: list[Any], query: dict[str, str]) -> Reply:
    """One page of a list, with a Link header to the next page on this server."""
    per_page = int(query.get("per_page", "30"))
    page = int(query.get("page", "1"))
    chunk = items[(page - 1) * per_page : page * per_page]
    headers = {}
    if page * per_page < len(items):
        extra = "".join(f"&{k}={v}" for k, v in query.items() if k not in ("page", "per_page"))
        nxt = gh.repo_url(f"{path}?per_page={per_page}&page={page + 1}{extra}")
        headers["Link"] = f'<{nxt}>; rel="next"'
    return 200, chunk, headers


@_on("GET", "")
def _repo(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    return 200, {"full_name": gh.repository, "url": gh.repo_url(), "default_branch": "main"}, {}


@_on("GET", r"/pulls")
def _pulls(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    state = q.get("state", "open")
    pulls = [p for p in gh.pulls.values() if state in ("all", p.state)]
    pulls.sort(key=lambda p: p.updated_at, reverse=q.get("direction", "desc") == "desc")
    return _page(gh, "/pulls", [gh.pull_json(p) for p in pulls], q)


@_on("GET", r"/pulls/(?P<n>\d+)")
def _pull(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    pull = gh.pulls.get(int(m.group("n")))
    if pull is None:
        return 404, {"message": "Not Found"}, {}
    accept = next((v for k, v in h.items() if k.lower() == "accept"), "")
    if "diff" in accept and pull.diff_too_large:
        return (
            406,
            {
                "message": "Sorry, the diff exceeded the maximum number of files (300). "
                "Consider using 'List pull requests files' API or locally cloning the repository "
                "instead.",
                "errors": [{"resource": "PullRequest", "field": "diff", "code": "too_large"}],
            },
            {},
        )
    if "diff" in accept:
        return 200, pull.diff.encode("utf-8"), {}
    reply = gh.pull_json(pull)
    gh.pull_reads += 1
    if gh.move_head is not None and gh.pull_reads >= gh.move_head[0]:
        pull.head_sha = gh.move_head[1]
    return 200, reply, {}


@_on("GET", r"/compare/(?P<base>[0-9a-f]+)\.\.\.(?P<head>[0-9a-f]+)")
def _compare(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    """GitHub's compare, answered by real git in ``gh.git_dir`` (files from the merge base)."""
    base, head = m.group("base"), m.group("head")
    known = all(_git(gh, "cat-file", "-e", f"{c}^{{commit}}") for c in (base, head))
    if gh.git_dir is None or not known:
        return 404, {"message": "Not Found"}, {}
    if base == head:
        status = "identical"
    elif _git(gh, "merge-base", "--is-ancestor", base, head):
        status = "ahead"
    elif _git(gh, "merge-base", "--is-ancestor", head, base):
        status = "behind"
    else:
        status = "diverged"
    names = _git_out(gh, "diff", "--name-only", f"{base}...{head}").split()
    files = [{"filename": n, "status": "modified"} for n in names]
    return 200, {"status": status, "total_commits": 1, "files": files}, {}


def _git(gh: FakeGitHub, *args: str) -> bool:
    done = subprocess.run(["git", *args], cwd=gh.git_dir, capture_output=True, check=False)
    return done.returncode == 0


def _git_out(gh: FakeGitHub, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=gh.git_dir, capture_output=True, check=False)
    return done.stdout.decode("utf-8", "replace")


@_on("GET", r"/pulls/(?P<n>\d+)/files")
def _files(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    n = int(m.group("n"))
    return _page(gh, f"/pulls/{n}/files", gh.pulls[n].files, q)


@_on("GET", r"/pulls/(?P<n>\d+)/commits")
def _commits(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    n = int(m.group("n"))
    items = [
        {
            "sha": c["sha"],
            "url": gh.repo_url(f"/commits/{c['sha']}"),
            "commit": {
                "message": c["message"],
                "author": {"name": c.get("name", "Ada"), "email": c.get("email", "ada@x.invalid")},
                "committer": {"name": "Cy", "email": "cy@x.invalid"},
            },
            "author": user(c.get("login", gh.pulls[n].author)),
        }
        for c in gh.pulls[n].commits
    ]
    return _page(gh, f"/pulls/{n}/commits", items, q)


@_on("GET", r"/issues/(?P<n>\d+)")
def _issue(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    n = int(m.group("n"))
    if n in gh.pulls:
        return 200, {"number": n, "title": gh.pulls[n].title, "pull_request": {"url": ""}}, {}
    if n not in gh.issues:
        return 404, {"message": "Not Found"}, {}
    return 200, {"number": n, "url": gh.repo_url(f"/issues/{n}"), **gh.issues[n]}, {}


@_on("GET", r"/issues/(?P<n>\d+)/events")
def _events(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    n = int(m.group("n"))
    return _page(gh, f"/issues/{n}/events", gh.events.get(n, []), q)


@_on("GET", r"/issues/(?P<n>\d+)/comments")
def _comments(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    n = int(m.group("n"))
    items = [c for c in gh.comments if c["issue_number"] == n]
    return _page(gh, f"/issues/{n}/comments", items, q)


@_on("POST", r"/issues/(?P<n>\d+)/comments")
def _comment(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    if len(b["body"]) > 65536:
        return 422, {"message": "Body is too long (maximum is 65536 characters)"}, {}
    comment = gh._comment(int(m.group("n")), b["body"], gh.commenter)
    gh.comments.append(comment)
    return 201, comment, {}


@_on("PATCH", r"/issues/comments/(?P<id>\d+)")
def _edit(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    for c in gh.comments:
        if c["id"] == int(m.group("id")):
            if c["user"]["login"] != gh.commenter["login"]:
                return 403, {"message": "Must have admin rights to Repository."}, {}
            c["body"] = b["body"]
            c["edits"] = c.get("edits", 0) + 1
            return 200, c, {}
    return 404, {"message": "Not Found"}, {}


@_on("POST", r"/issues/comments/(?P<id>\d+)/reactions")
def _react(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    reaction = {"id": gh.next_id(), "comment_id": int(m.group("id")), "content": b["content"]}
    gh.reactions.append(reaction)
    return 201, {**reaction, "user": BOT}, {}


@_on("GET", r"/collaborators/(?P<u>[^/]+)/permission")
def _perm(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    perm = gh.permissions.get(m.group("u"), "read")
    legacy = {"maintain": "write", "triage": "read"}.get(perm, perm)
    return 200, {"permission": legacy, "role_name": perm, "user": user(m.group("u"))}, {}


@_on("GET", r"/labels/(?P<name>[^/]+)")
def _label(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    found = gh.labels.get(unquote(m.group("name")))
    return (200, found, {}) if found else (404, {"message": "Not Found"}, {})


@_on("POST", r"/labels")
def _new_label(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    if b["name"] in gh.labels:
        return 422, {"message": "Validation Failed", "errors": [{"code": "already_exists"}]}, {}
    if not re.fullmatch(r"[0-9a-fA-F]{6}", b.get("color", "")):
        return 422, {"message": "Validation Failed", "errors": [{"field": "color"}]}, {}
    label = {"id": gh.next_id(), "name": b["name"], "color": b["color"],
             "description": b.get("description", "")}  # fmt: skip
    gh.labels[b["name"]] = label
    return 201, label, {}


def _on_pull(gh: FakeGitHub, m: re.Match[str]) -> list[str]:
    return gh.pulls[int(m.group("n"))].labels


def _label_list(gh: FakeGitHub, names: list[str]) -> list[dict[str, Any]]:
    return [gh.labels.get(n, {"name": n, "color": "ededed"}) for n in names]


@_on("GET", r"/issues/(?P<n>\d+)/labels")
def _pull_labels(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    return _page(gh, f"/issues/{m.group('n')}/labels", _label_list(gh, _on_pull(gh, m)), q)


@_on("POST", r"/issues/(?P<n>\d+)/labels")
def _add_labels(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    names = _on_pull(gh, m)
    for name in b["labels"]:
        if name not in names:
            names.append(name)
        gh.labels.setdefault(name, {"id": gh.next_id(), "name": name, "color": "ededed",
                                    "description": ""})  # fmt: skip
    return 200, _label_list(gh, names), {}


@_on("DELETE", r"/issues/(?P<n>\d+)/labels/(?P<name>[^/]+)")
def _remove_label(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    names = _on_pull(gh, m)
    name = unquote(m.group("name"))
    if name not in names:
        return 404, {"message": "Label does not exist"}, {}
    names.remove(name)
    return 200, _label_list(gh, names), {}


@_on("GET", r"/pulls/comments/(?P<id>\d+)/reactions")
def _inline_reactions(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    cid = int(m.group("id"))
    if not any(c["id"] == cid for c in gh.review_comments):
        return 404, {"message": "Not Found"}, {}
    items = gh.review_comment_reactions.get(cid, [])
    return _page(gh, f"/pulls/comments/{cid}/reactions", items, q)


@_on("GET", r"/git/trees/(?P<sha>[0-9a-f]+)")
def _tree(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    files = gh.trees.get(m.group("sha"))
    if files is None:
        return 404, {"message": "Not Found"}, {}
    entries = [
        {
            "path": p,
            "mode": "100644",
            "type": "blob",
            "sha": _sha(t),
            "url": gh.repo_url("/git/blobs/x"),
        }
        for p, t in sorted(files.items())
    ]
    return 200, {"sha": m.group("sha"), "tree": entries, "truncated": False}, {}


@_on("GET", r"/contents/(?P<path>.+)")
def _contents(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    files = gh.trees.get(q.get("ref", ""), {})
    path = m.group("path")
    if path not in files:
        return 404, {"message": "Not Found"}, {}
    text = files[path]
    return (
        200,
        {
            "type": "file",
            "encoding": "base64",
            "content": b64(text),
            "path": path,
            "sha": _sha(text),
            "size": len(text.encode() if isinstance(text, str) else text),
            "url": gh.repo_url(f"/contents/{path}"),
        },
        {},
    )


@_on("GET", r"/commits/(?P<sha>[0-9a-f]+)/check-runs")
def _list_runs(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    runs = [
        r
        for r in gh.check_runs
        if r["head_sha"] == m.group("sha") and r["name"] == q.get("check_name", r["name"])
    ]
    return 200, {"total_count": len(runs), "check_runs": runs}, {}


@_on("POST", r"/check-runs")
def _create_run(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    if gh.check_runs_forbidden:
        return 403, _FORBIDDEN, {}
    rid = gh.next_id()
    run = {
        "id": rid,
        "url": gh.repo_url(f"/check-runs/{rid}"),
        "html_url": f"https://github.example/{gh.repository}/runs/{rid}",
        "annotations": [],
        "status": "queued",
        "conclusion": None,
        **b,
    }
    output = run.pop("output", None)
    run["output"] = {}
    _apply_output(run, output)
    if b.get("conclusion"):
        run["status"] = "completed"
    gh.check_runs.append(run)
    return 201, run, {}


@_on("PATCH", r"/check-runs/(?P<id>\d+)")
def _update_run(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    for run in gh.check_runs:
        if run["id"] == int(m.group("id")):
            output = b.get("output")
            if output is not None and len(output.get("annotations", [])) > 50:
                return 422, {"message": "No more than 50 items are allowed"}, {}
            gh.check_run_patches.append(b)
            run.update({k: v for k, v in b.items() if k != "output"})
            _apply_output(run, output)
            if b.get("conclusion"):
                run["status"] = "completed"
            return 200, run, {}
    return 404, {"message": "Not Found"}, {}


def _apply_output(run: dict[str, Any], output: dict[str, Any] | None) -> None:
    """A PATCH replaces the output but appends annotations, as GitHub does."""
    if output is None:
        return
    run["annotations"].extend(output.get("annotations", []))
    run["output"] = {k: output.get(k) for k in ("title", "summary", "text")}


@_on("POST", r"/statuses/(?P<sha>[0-9a-f]+)")
def _status(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    if gh.statuses_forbidden:
        return 403, _FORBIDDEN, {}
    if len(b.get("description", "")) > 140:
        return 422, {"message": "description is too long (maximum is 140 characters)"}, {}
    status = {"id": gh.next_id(), "sha": m.group("sha"), **b}
    gh.statuses.append(status)
    return 201, status, {}


@_on("GET", r"/pulls/(?P<n>\d+)/comments")
def _review_comments(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    n = int(m.group("n"))
    items = [c for c in gh.review_comments if c["pull_number"] == n]
    return _page(gh, f"/pulls/{n}/comments", items, q)


def _anchor_ok(gh: FakeGitHub, comment: dict[str, Any]) -> bool:
    return gh.bad_anchor != (comment.get("path"), comment.get("line"))


def _store_review_comment(gh: FakeGitHub, n: int, c: dict[str, Any], sha: str) -> dict[str, Any]:
    stored = {"id": gh.next_id(), "pull_number": n, "commit_id": sha, "user": gh.commenter,
              "diff_hunk": _hunk_to(gh, sha, c.get("path", ""), c.get("line")), **c}  # fmt: skip
    gh.review_comments.append(stored)
    return stored


@_on("POST", r"/pulls/(?P<n>\d+)/reviews")
def _review(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    n = int(m.group("n"))
    comments = b.get("comments", [])
    if not all(_anchor_ok(gh, c) for c in comments):
        return (
            422,
            {
                "message": "Unprocessable Entity",
                "errors": ["Pull request review thread line must be part of the diff"],
            },
            {},
        )
    for c in comments:
        _store_review_comment(gh, n, c, b["commit_id"])
    review = {
        "id": gh.next_id(),
        "body": b.get("body"),
        "event": b.get("event"),
        "user": gh.commenter,
    }
    gh.reviews.append(review)
    return 200, review, {}


@_on("POST", r"/pulls/(?P<n>\d+)/comments")
def _single(
    gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]
) -> Reply:
    if not _anchor_ok(gh, b):
        return (
            422,
            {"message": "Unprocessable Entity", "errors": ["line must be part of the diff"]},
            {},
        )
    body = {k: v for k, v in b.items() if k != "commit_id"}
    return 201, _store_review_comment(gh, int(m.group("n")), body, b["commit_id"]), {}


def _sha(text: str | bytes) -> str:
    raw = text.encode() if isinstance(text, str) else text
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()


def _hunk_to(gh: FakeGitHub, sha: str, path: str, line: int | None) -> str:
    """A diff hunk ending at the commented line, as GitHub's ``diff_hunk`` does."""
    text = gh.trees.get(sha, {}).get(path)
    if not isinstance(text, str) or not line:
        return ""
    lines = text.splitlines()
    return f"@@ -0,0 +1,{line} @@\n+{lines[line - 1]}" if line <= len(lines) else ""


@_on("POST", r"/pulls/(?P<n>\d+)/comments/(?P<id>\d+)/replies")
def _reply(gh: FakeGitHub, m: re.Match[str], q: dict[str, str], b: Any, h: dict[str, str]) -> Reply:
    parent = next((c for c in gh.review_comments if c["id"] == int(m.group("id"))), None)
    if parent is None:
        return 404, {"message": "Not Found"}, {}
    stored = {"id": gh.next_id(), "pull_number": int(m.group("n")), "body": b["body"],
              "path": parent.get("path", ""), "in_reply_to_id": parent["id"],
              "user": gh.commenter}  # fmt: skip
    gh.review_comments.append(stored)
    return 201, stored, {}


def _graphql(gh: FakeGitHub, body: Any) -> Reply:
    """The two GraphQL operations the action uses: reviewThreads and resolveReviewThread."""
    query, variables = body["query"], body.get("variables") or {}
    gh.graphql_calls.append(body)
    if "resolveReviewThread" in query:
        root = int(str(variables["id"]).removeprefix("PRRT_"))
        if not any(c["id"] == root for c in gh.review_comments):
            return 200, {"errors": [{"type": "NOT_FOUND", "message": "no thread"}]}, {}
        gh.resolved_threads.add(root)
        gh.resolved_by[root] = gh.commenter["login"].removesuffix("[bot]")
        return 200, {"data": {"resolveReviewThread": {"thread": {"isResolved": True}}}}, {}
    if "reviewThreads" in query:
        number = int(variables["number"])
        roots = [c for c in gh.review_comments
                 if c["pull_number"] == number and not c.get("in_reply_to_id")]  # fmt: skip
        nodes = []
        for c in roots:
            author = {"login": c["user"]["login"].removesuffix("[bot]")}  # GraphQL drops [bot]
            first = {"databaseId": c["id"], "author": author}
            who = gh.resolved_by.get(c["id"])
            nodes.append({"id": f"PRRT_{c['id']}", "isResolved": c["id"] in gh.resolved_threads,
                          "resolvedBy": {"login": who} if who else None,
                          "comments": {"nodes": [first]}})  # fmt: skip
        page = {"pageInfo": {"hasNextPage": False, "endCursor": None}, "nodes": nodes}
        return 200, {"data": {"repository": {"pullRequest": {"reviewThreads": page}}}}, {}
    return 200, {"errors": [{"message": "unsupported query in the fake"}]}, {}
