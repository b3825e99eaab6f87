"""Security-advisory markers in the PR's own text: a fix the project itself calls a security fix.

Read from the title, the description and the commit messages: advisory ids (GitHub's
``GHSA-xxxx-xxxx-xxxx``, ``CVE-YYYY-NNNN``), the word "security" or "vulnerability" in the
title, and GitHub's "Merge commit from fork", the merge of a private security-advisory fork.
PR text is hostile data, but this signal can only raise the lane: claiming an advisory makes a
PR red (held for a human), never green.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor

FACTOR = "security-advisory"
_ADVISORY_ID = re.compile(
    r"\b(GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|CVE-\d{4}-\d{4,7})\b", re.IGNORECASE
)
_TITLE_WORD = re.compile(r"\b(security|vulnerabilit(?:y|ies))\b(?!\.\w)", re.IGNORECASE)
"""The word, not a file name (``remove SECURITY.md`` is about a document)."""
_FORK_MERGE = re.compile(r"\AMerge commit from fork\s*\Z", re.IGNORECASE)
_ADVISORY_MERGE = re.compile(r"\AMerge pull request from GHSA-", re.IGNORECASE)
"""GitHub's merge of a repository security advisory's private fork: the project's own fix."""


@dataclass(frozen=True)
class PrText:
    """The PR's own words the markers are looked for in."""

    title: str
    body: str
    messages: Sequence[str] = ()


def _subject(message: str) -> str:
    return message.strip().split("\n", 1)[0].strip()


def markers(text: PrText) -> list[str]:
    """Each marker found, as a short description naming where it was found."""
    found: list[str] = []
    sources = [("title", text.title), ("description", text.body)]
    sources += [("a commit message", m) for m in text.messages]
    for where, value in sources:
        match = _ADVISORY_ID.search(value)
        if match:
            found.append(f"advisory id {match.group(1).upper()} in {where}")
            break
    match = _TITLE_WORD.search(text.title)
    if match:
        found.append(f"\"{match.group(1).lower()}\" in the title")
    subjects = [text.title, *(_subject(m) for m in text.messages)]
    if any(_FORK_MERGE.match(s.strip()) for s in subjects):
        found.append("GitHub's \"Merge commit from fork\" (a private security-advisory fork)")
    return found


def advisory_factor(
    text: PrText, paths: Sequence[str], manifests: Sequence[str] = ()
) -> RiskFactor | None:
    """A red factor naming the markers, or None when there are none (or nothing changed).

    When every changed file is a dependency manifest or lock file (``manifests``), the
    advisory is a dependency's and the bump is its fix: yellow, saying so; unless the PR is
    the merge of the project's own advisory fork (then the bump is how it fixed itself)."""
    found = markers(text)
    if not found or not paths:
        return None
    subjects = [text.title, *(_subject(m) for m in text.messages)]
    own = any(_FORK_MERGE.match(x.strip()) or _ADVISORY_MERGE.match(x.strip()) for x in subjects)
    bump = set(paths) <= set(manifests) and not own
    return RiskFactor(
        factor=FACTOR,
        files=tuple(paths),
        severity=FactorSeverity.MODERATE if bump else FactorSeverity.RED,
        why=("only dependency versions change, for a dependency's advisory: "
             if bump else "the PR says it fixes a security issue: ") + "; ".join(found),
    )
