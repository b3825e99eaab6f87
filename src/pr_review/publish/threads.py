"""Our inline threads resolved when a later push fixed their finding.

A thread is resolved only when all of these hold: it was started by one of our inline
comments (its first comment carries our fingerprint marker and our login); the finding with
that fingerprint is not among this review's findings (shown or not) and no finding of the same
title is reported in that file (a rewritten line with the same problem is not a fix); the line
the comment was on is no longer in the file (its text, from GitHub's ``diff_hunk``, is gone
from the head, or the file is); and the thread is open. Then one short reply names the commit,
and the thread is resolved over GraphQL (``resolveReviewThread``). A person's thread is never
resolved, and a thread a person resolved is never reopened (nothing here unresolves).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pr_review.errors import GitHubError
from pr_review.packet.neutralize import inline
from pr_review.publish.inline import FINGERPRINT_PATTERN, fingerprint_of
from pr_review.schema.finding import SynthesizedFinding
from pr_review.sources.github import GitHubApi

FIXED_REPLY_START = "Fixed in "
REPLY = (FIXED_REPLY_START
         + "{sha}: this finding is no longer reported and the line it was on changed.")  # fmt: skip
_TITLE = re.compile(r"^\*\*[A-Z]+: (.*)\*\*$", re.MULTILINE)


def _ours(login: str, identity: str | None) -> bool:
    return login == identity if identity is not None else login.endswith("[bot]")


def _commented_line(diff_hunk: str) -> str:
    """The text of the line a comment is on: the last line of its hunk, without the marker."""
    lines = diff_hunk.splitlines()
    return lines[-1][1:].strip() if lines and not lines[-1].startswith("@@") else ""


def resolve_fixed(
    api: GitHubApi,
    number: int,
    head_sha: str,
    findings: Sequence[SynthesizedFinding],
    head_text: Callable[[str], str | None],
    *,
    identity: str | None,
) -> str | None:
    """Resolve our threads whose finding a push fixed; a line for the job summary (None when
    there was nothing to resolve)."""
    current = {fingerprint_of(f) for f in findings}
    still = {(f.file, inline(f.title, 300)) for f in findings}
    fixed: dict[int, str] = {}
    for c in api.review_comments(number):
        login = c.user.login if c.user else ""
        marks = FINGERPRINT_PATTERN.findall(c.body)
        if c.in_reply_to_id is not None or not marks or not _ours(login, identity):
            continue
        title = _TITLE.match(c.body)
        if marks[-1] in current or (title and (c.path, title.group(1)) in still):
            continue  # still reported (the same problem on the rewritten line is not a fix)
        line = _commented_line(c.diff_hunk)
        if not line:
            continue  # the line cannot be told: leave the thread to people
        text = head_text(c.path)
        if text is not None and line in {x.strip() for x in text.splitlines()}:
            continue  # the code is still there: the finding may just not have been reported
        fixed[c.id] = marks[-1]
    if not fixed:
        return None
    resolved = 0
    try:
        for thread in api.review_threads(number):
            if thread.first_comment_id in fixed and not thread.is_resolved:
                api.reply_inline(number, thread.first_comment_id, REPLY.format(sha=head_sha[:12]))
                api.resolve_thread(thread.thread_id)
                resolved += 1
    except GitHubError as exc:
        return f"threads: {resolved} resolved, then stopped ({exc})"
    return f"threads: {resolved} of ours resolved (their findings were fixed in {head_sha[:12]})"
