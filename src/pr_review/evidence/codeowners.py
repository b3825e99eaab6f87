"""CODEOWNERS, read with GitHub's semantics.

The first file found of ``.github/CODEOWNERS``, ``CODEOWNERS``, ``docs/CODEOWNERS`` is used.
The last matching pattern wins; a pattern with a ``/`` at its start or middle is anchored
to the root, otherwise it matches at any depth; ``*`` stays within a directory, ``**``
spans directories; a pattern naming a directory owns everything under it, except that
``dir/*`` owns only the files directly in ``dir``. Lines GitHub rejects (negation,
character ranges, owners that are not ``@user``, ``@org/team`` or an e-mail) are skipped
and reported, never fatal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pr_review.evidence.globs import translate
from pr_review.schema.pack import OwnerRule
from pr_review.sources.model import RepoTree

LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")
_OWNER = re.compile(
    r"^(?:@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9._-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$"
)


@dataclass(frozen=True)
class OwnerEntry:
    """One valid CODEOWNERS line."""

    line: int
    pattern: str
    owners: tuple[str, ...]
    regex: re.Pattern[str]

    def matches(self, path: str) -> bool:
        """True when this pattern covers ``path``."""
        return self.regex.match(path) is not None


@dataclass(frozen=True)
class CodeOwners:
    """A parsed CODEOWNERS file: its entries in file order and the lines it skipped."""

    source: str | None
    entries: tuple[OwnerEntry, ...] = ()
    errors: tuple[str, ...] = ()

    def owner_of(self, path: str) -> OwnerEntry | None:
        """The entry that decides ``path``: the last one that matches."""
        for entry in reversed(self.entries):
            if entry.matches(path):
                return entry
        return None


def read_codeowners(tree: RepoTree) -> CodeOwners:
    """Parse the first CODEOWNERS found in ``tree`` (an empty value when there is none)."""
    for location in LOCATIONS:
        text = tree.read(location)
        if text is not None:
            return parse_codeowners(text, source=location)
    return CodeOwners(source=None)


def parse_codeowners(text: str, *, source: str = "CODEOWNERS") -> CodeOwners:
    """Parse CODEOWNERS text; invalid lines become ``errors`` naming file and line."""
    entries: list[OwnerEntry] = []
    errors: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        pattern, *owners = line.split()
        problem = _problem(pattern, owners)
        if problem:
            errors.append(f"{source}:{number}: {problem}; line skipped")
            continue
        entries.append(OwnerEntry(number, pattern, tuple(owners), _compile(pattern)))
    return CodeOwners(source, tuple(entries), tuple(errors))


def owner_rules(codeowners: CodeOwners, paths: Iterable[str]) -> tuple[OwnerRule, ...]:
    """The deciding rule of each touched path, grouped by rule, in file order."""
    files: dict[int, list[str]] = {}
    by_line: dict[int, OwnerEntry] = {}
    for path in paths:
        entry = codeowners.owner_of(path)
        if entry is None or not entry.owners:
            continue
        files.setdefault(entry.line, []).append(path)
        by_line[entry.line] = entry
    return tuple(
        OwnerRule(path_pattern=by_line[n].pattern, owners=by_line[n].owners, files=tuple(files[n]))
        for n in sorted(files)
    )


def _strip_comment(line: str) -> str:
    """Drop a ``#`` comment; ``\\#`` at the start is a literal ``#``."""
    if line.startswith("\\#"):
        return line
    index = line.find(" #")
    if line.startswith("#"):
        return ""
    return line if index < 0 else line[:index]


def _problem(pattern: str, owners: list[str]) -> str | None:
    if pattern.startswith("!"):
        return f"negated pattern {pattern!r} is not supported by CODEOWNERS"
    if "[" in pattern or "]" in pattern:
        return f"character ranges in {pattern!r} are not supported by CODEOWNERS"
    bad = [o for o in owners if not _OWNER.match(o)]
    if bad:
        return f"owner {bad[0]!r} is not @user, @org/team or an e-mail address"
    return None


def _compile(pattern: str) -> re.Pattern[str]:
    text = pattern.replace("\\#", "#")
    anchored = "/" in text.rstrip("/")
    body = text.strip("/")
    regex = translate(body) if body else ".*"
    prefix = "" if anchored else "(?:.*/)?"
    # ``dir/*`` owns the files directly in dir; any other pattern also owns what is under it.
    suffix = "" if body.endswith("/*") or body == "*" else "(?:/.*)?"
    if text.endswith("/"):
        suffix = "/.*"
    return re.compile(f"^{prefix}{regex}{suffix}$", re.DOTALL)
