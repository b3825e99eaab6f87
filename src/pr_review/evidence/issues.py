"""Linked issues referenced in the PR body (and title): numbers now, details when fetched."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pr_review.schema.pack import LinkedIssue
from pr_review.sources.model import IssueDetails

_CLOSING = r"(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)"
_REFERENCE = re.compile(
    rf"(?P<closing>\b{_CLOSING}\s*:?\s+)?"
    r"(?:https?://[^\s/]+/(?P<url_repo>[\w.-]+/[\w.-]+)/(?:issues|pull)/(?P<url_number>\d+)"
    r"|(?<![\w/#])(?P<repo>[\w.-]+/[\w.-]+)?#(?P<number>\d+)\b)",
    re.IGNORECASE,
)


def linked_issues(
    text: str, *, repository: str | None = None, details: Iterable[IssueDetails] = ()
) -> tuple[LinkedIssue, ...]:
    """Every distinct issue reference in ``text``; ``details`` fill titles and bodies."""
    known = {(d.repository, d.number): d for d in details}
    seen: dict[tuple[str | None, int], LinkedIssue] = {}
    for match in _REFERENCE.finditer(text):
        number = int(match.group("url_number") or match.group("number"))
        repo = match.group("url_repo") or match.group("repo")
        if repo is not None and repository is not None and repo.lower() == repository.lower():
            repo = None
        key = (repo, number)
        closing = match.group("closing") is not None
        if key in seen:
            if closing and not seen[key].closing:
                seen[key] = seen[key].model_copy(update={"closing": True})
            continue
        found = known.get(key) or (known.get((repository, number)) if repo is None else None)
        seen[key] = LinkedIssue(
            number=number,
            repository=repo,
            closing=closing,
            title=found.title if found else "",
            body=found.body if found else "",
            labels=found.labels if found else (),
        )
    return tuple(seen.values())
