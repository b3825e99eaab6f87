"""Security-advisory markers in the PR's own words: a fix the project itself calls a security fix.

Read from the title, the description and the commit messages: advisory ids (GitHub's
``GHSA-xxxx-xxxx-xxxx``, ``CVE-YYYY-NNNN``), the word "security" or "vulnerability" in the
title, and GitHub's "Merge commit from fork", the merge of a private security-advisory fork.
Read from the PR's code too (:func:`code_markers`): an advisory id the PR newly writes into a
code or test file (``// GHSA-29xp-372q-xqph``, ``test('... (GHSA-vmh5-mc38-953g)')``) or into
the name of a file it adds (``test/ghsa-r6q2-hw4h-h46w.ts``, a changelog fragment
``changelog/GHSA-mf9v-mfxr-j63j.bugfix.rst``): the identifier's format is global, so it means
the same in every repository, and fixes landed under a neutral title still name their
advisory in a regression test or a comment. Documentation lines are not read (a release's
changelog lists the advisories of fixes merged before it), nor an id the PR only moves (as
many removed as added). PR text and code are hostile data, but this signal can only raise the
lane: claiming an advisory makes a PR red (held for a human), never green.

Examples (run by the test suite, ``CODE_MARKER_EXAMPLES``): (path, status, added lines, removed
lines, marker found?).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.paths import PathKind

FACTOR = "security-advisory"
ADVISORY_ID = re.compile(
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
        match = ADVISORY_ID.search(value)
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


_READ_KINDS = frozenset({PathKind.CODE, PathKind.TEST})


def code_markers(files: Sequence[FileDiff], kinds: Mapping[str, PathKind]) -> list[str]:
    """The first advisory id the PR newly writes into a file name, or into the added lines of
    its code and test files, as a short description naming where (at most one)."""
    for f in files:
        named = ADVISORY_ID.search(f.path)
        was = ADVISORY_ID.search(f.old_path) if f.old_path else None
        if named and f.status in (FileStatus.ADDED, FileStatus.RENAMED) and not was:
            return [f"advisory id {named.group(1).upper()} in the name of `{f.path}`"]
    added: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    first: dict[str, str] = {}
    for f in files:
        if kinds.get(f.path) not in _READ_KINDS:
            continue
        for hunk in f.hunks:
            for number, line in hunk.added:
                for match in ADVISORY_ID.finditer(line):
                    found = match.group(1).upper()
                    added[found] += 1
                    first.setdefault(found, f"`{f.path}` (line {number})")
            for _, line in hunk.removed:
                removed.update(m.group(1).upper() for m in ADVISORY_ID.finditer(line))
    new = [found for found in first if added[found] > removed[found]]
    return [f"advisory id {new[0]} in {first[new[0]]}"] if new else []


def advisory_factor(
    text: PrText, paths: Sequence[str], manifests: Sequence[str] = (),
    in_code: Sequence[str] = (), *, own: bool = False,
) -> RiskFactor | None:
    """A red factor naming the markers, or None when there are none (or nothing changed).

    When every changed file is a dependency manifest or lock file (``manifests``), the
    advisory is a dependency's and the bump is its fix: yellow, saying so; unless the PR is
    the merge of the project's own advisory fork (then the bump is how it fixed itself).
    ``in_code``: :func:`code_markers` of the PR's files. ``own``: the PR's changelog calls the
    bump the project's own security fix without naming the dependency
    (:func:`pr_review.evidence.fix_claims.dependency_fix_markers`)."""
    found = markers(text) + list(in_code)
    if not found or not paths:
        return None
    subjects = [text.title, *(_subject(m) for m in text.messages)]
    own = own or any(
        _FORK_MERGE.match(x.strip()) or _ADVISORY_MERGE.match(x.strip()) for x in subjects
    )
    bump = set(paths) <= set(manifests) and not own
    return RiskFactor(
        factor=FACTOR,
        files=tuple(paths),
        severity=FactorSeverity.MODERATE if bump else FactorSeverity.RED,
        why=("only dependency versions change, for a dependency's advisory: "
             if bump else "the PR says it fixes a security issue: ") + "; ".join(found),
    )


CODE_MARKER_EXAMPLES: tuple[tuple[str, FileStatus, tuple[str, ...], tuple[str, ...], bool], ...] = (
    # a regression test or comment naming the advisory the PR fixes
    ("test/list.ts", FileStatus.MODIFIED, ("// GHSA-29xp-372q-xqph",), (), True),
    ("test/socks5-proxy-agent.js", FileStatus.MODIFIED,
     ("test('requestTls is honored (GHSA-vmh5-mc38-953g)', async (t) => {",), (), True),
    ("lib/adapters/xhr.js", FileStatus.MODIFIED,
     ("      // regarding CVE-2023-45857 config.withCredentials condition was removed",), (), True),
    # a file named for one: a regression test, a changelog fragment
    ("test/ghsa-r6q2-hw4h-h46w.ts", FileStatus.ADDED, ("import t from 'tap'",), (), True),
    ("changelog/GHSA-mf9v-mfxr-j63j.bugfix.rst", FileStatus.ADDED, ("Fixed a bug.",), (), True),
    # documentation lines are not read: a release's changelog lists earlier fixes
    ("CHANGES.rst", FileStatus.MODIFIED, ("- Fixed CVE-2024-1135 (request smuggling)",), (),
     False),
    # an id only moved, or a look-alike that is no advisory id
    ("src/auth.py", FileStatus.MODIFIED, ("    # see CVE-2020-26137",),
     ("  # see CVE-2020-26137",), False),
    ("src/ids.py", FileStatus.MODIFIED, ("GHSA = 'GHSA-abcd-efgh-ijkl'",), (), False),
    # a file the PR only edits keeps its name
    ("test/ghsa-8qq5-rm4j-mr97.ts", FileStatus.MODIFIED, ("  t.equal(a, b)",), (), False),
)  # fmt: skip
"""Each: a file of the PR (its kind from its path), its added and removed lines, and whether an
advisory id is found."""
