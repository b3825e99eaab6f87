"""Dismissals: a person with write access waves one of our inline findings away.

On an inline comment of ours (it carries the finding's fingerprint), a reply that starts with
``/review dismiss`` (the rest of its first line is the reason), a thumbs-down reaction, or
resolving its thread dismisses that finding for the rest of the PR: it is not ranked or
commented again, even when later pushes move its lines (the fingerprint is the cited code,
not the line), and the packet lists it under "Dismissed" with who and why. The state lives
in the packet's state block (author-checked like the rest of it). A dismissal by someone
without write access is ignored and the packet says so: PR authors from forks cannot silence
the review. A repository makes a dismissal permanent with ``synthesis.dismiss``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pr_review.errors import GitHubError
from pr_review.publish.inline import FINGERPRINT_PATTERN
from pr_review.publish.threads import FIXED_REPLY_START
from pr_review.sources.github import GitHubApi
from pr_review.sources.github_models import ReviewComment
from pr_review.synthesis.memory import Dismissal, ReviewMemory

_COMMAND = re.compile(r"^\s*/review\s+dismiss\b[ \t]*(?P<reason>[^\r\n]*)", re.IGNORECASE)
WRITERS = frozenset({"admin", "maintain", "write"})
MAX_REASON = 300


@dataclass(frozen=True)
class Found:
    """Dismissals read from the PR's inline threads, split by the dismisser's access."""

    accepted: tuple[Dismissal, ...] = ()
    ignored: tuple[Dismissal, ...] = ()


def _ours(login: str, identity: str | None) -> bool:
    return login == identity if identity is not None else login.endswith("[bot]")


def collect(api: GitHubApi, number: int, identity: str | None) -> Found:
    """Every dismissal on our inline comments of PR ``number``."""
    comments = api.review_comments(number)
    fingerprints: dict[int, str] = {}
    for c in comments:
        login = c.user.login if c.user else ""
        marks = FINGERPRINT_PATTERN.findall(c.body)
        if marks and _ours(login, identity):
            fingerprints[c.id] = marks[-1]
    raw: list[Dismissal] = []
    for c in comments:
        target = fingerprints.get(c.in_reply_to_id or -1)
        match = _COMMAND.match(c.body)
        if target is None or match is None or c.user is None:
            continue
        reason = match.group("reason").strip()[:MAX_REASON]
        raw.append(Dismissal(fingerprint=target, by=c.user.login, how="reply", reason=reason))
    raw.extend(_resolved_threads(api, number, fingerprints, comments))
    for comment_id, target in fingerprints.items():
        raw.extend(
            Dismissal(fingerprint=target, by=r.user.login, how="reaction")
            for r in api.review_comment_reactions(comment_id)
            if r.content == "-1" and r.user is not None
        )
    return split_by_access(raw, api.permission)


def _resolved_threads(
    api: GitHubApi, number: int, fingerprints: dict[int, str], comments: Sequence[ReviewComment]
) -> list[Dismissal]:
    """Our threads a person resolved (not the ones we resolved after a fix: those carry our
    "Fixed in" reply). GraphQL; a repository without it loses only this way of dismissing."""
    fixed = {c.in_reply_to_id for c in comments if c.body.startswith(FIXED_REPLY_START)}
    try:
        threads = api.review_threads(number)
    except GitHubError:
        return []
    out = []
    for t in threads:
        target = fingerprints.get(t.first_comment_id or -1)
        if t.is_resolved and t.resolved_by and target and t.first_comment_id not in fixed:
            out.append(Dismissal(fingerprint=target, by=t.resolved_by, how="resolved thread"))
    return out


def split_by_access(raw: Sequence[Dismissal], permission: Callable[[str], str]) -> Found:
    """Dismissals by writers (the first per finding) and the others; each login looked up once."""
    access: dict[str, bool] = {}
    accepted: dict[str, Dismissal] = {}
    ignored: list[Dismissal] = []
    for d in raw:
        if d.by not in access:
            access[d.by] = permission(d.by) in WRITERS
        if not access[d.by]:
            ignored.append(d)
        elif d.fingerprint not in accepted:
            accepted[d.fingerprint] = d
    return Found(tuple(accepted.values()), tuple(ignored))


def remember(previous: ReviewMemory, found: Found) -> ReviewMemory:
    """``previous`` with the dismissals read now added (earlier ones kept, first wins)."""
    kept = {d.fingerprint: d for d in previous.dismissed}
    for d in found.accepted:
        kept.setdefault(d.fingerprint, d)
    return previous.model_copy(
        update={"dismissed": tuple(kept.values()), "ignored_dismissals": found.ignored}
    )
