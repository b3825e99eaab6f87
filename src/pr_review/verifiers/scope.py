"""Diff scope: which lines a pull request changed, and which verifier findings it answers for.

A PR is answerable for what it changed, not for the repository's old debts. A finding is kept
when its first line is one the PR added (or changed: a changed line is an added line on the
new side). A finding on an untouched line of a touched file is kept only when it is new in
head: the same tool run on the base version of the file did not report the same rule on a
line with the same content (compared as multisets, never by line number, so code that merely
moved is not blamed on the PR). A finding on a line the PR rewrote is the old one when the
base reported the same rule on a line the same hunk removed (paired one for one): a
``pyupgrade`` that turns ``List[str] = []`` into ``list[str] = []`` did not add the mutable
default, and a hunk that keeps one defect and adds a second still answers for the second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from pr_review.sources.diff import Diff, FileDiff, FileStatus


@dataclass(frozen=True, slots=True)
class LineRange:
    """Inclusive run of consecutive new-side line numbers."""

    start: int
    end: int


def line_runs(numbers: Iterable[int]) -> tuple[LineRange, ...]:
    """Sorted distinct numbers merged into consecutive inclusive runs."""
    runs: list[LineRange] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1].end + 1:
            runs[-1] = LineRange(runs[-1].start, n)
        else:
            runs.append(LineRange(n, n))
    return tuple(runs)


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One hunk that replaced lines: base numbers it removed, head numbers it added."""

    removed: frozenset[int]
    added: frozenset[int]


@dataclass(frozen=True)
class DiffScope:
    """The changed lines of every touched file, keyed by new (head) path."""

    changed: Mapping[str, frozenset[int]]
    """Head path -> new-side numbers of the lines the PR added or changed."""
    base_paths: Mapping[str, str]
    """Head path -> base path, for files that exist on both sides (modified, renamed, copied)."""
    rewrites: Mapping[str, tuple[Rewrite, ...]] = field(default_factory=dict)
    """Head path -> its hunks that both removed and added lines."""

    @classmethod
    def from_diff(cls, diff: Diff) -> DiffScope:
        """The scope of a parsed diff; deleted files are not part of it (no head side)."""
        changed: dict[str, frozenset[int]] = {}
        base_paths: dict[str, str] = {}
        rewrites: dict[str, tuple[Rewrite, ...]] = {}
        for f in diff.files:
            if f.status is FileStatus.DELETED:
                continue
            changed[f.path] = frozenset(f.added_line_numbers)
            base = base_path(f)
            if base is not None:
                base_paths[f.path] = base
                rewrites[f.path] = tuple(
                    Rewrite(frozenset(n for n, _ in h.removed), frozenset(n for n, _ in h.added))
                    for h in f.hunks
                    if h.removed and h.added
                )
        return cls(changed, base_paths, rewrites)

    def rewritten_from(self, path: str, line: int | None) -> frozenset[int]:
        """The base lines removed by the hunk that added ``line`` of ``path`` (empty when the
        line is not added, or its hunk only added)."""
        return next(
            (r.removed for r in self.rewrites.get(path, ()) if line in r.added), frozenset()
        )

    def touched(self, path: str) -> bool:
        """True when the PR touched ``path`` (head path) and it still exists."""
        return path in self.changed

    def ranges(self, path: str) -> tuple[LineRange, ...]:
        """The changed lines of ``path`` as consecutive runs (empty when untouched)."""
        return line_runs(self.changed.get(path, ()))

    def all_ranges(self) -> tuple[tuple[str, LineRange], ...]:
        """Every changed run of every touched file, in diff order."""
        return tuple((path, r) for path in self.changed for r in self.ranges(path))

    def hits(self, path: str, line: int | None) -> bool:
        """True when ``line`` of ``path`` is one the PR added or changed.

        Only a finding's first line counts: a span (a whole function for "missing
        annotation") would blame a signature on a change to its body. A multi-line
        construct whose later line changed is still caught, by the base comparison.
        """
        return line is not None and line in self.changed.get(path, frozenset())


def base_path(f: FileDiff) -> str | None:
    """Where the file's base version lives, or None when it has none (added, deleted)."""
    match f.status:
        case FileStatus.MODIFIED:
            return f.path
        case FileStatus.RENAMED | FileStatus.COPIED:
            return f.old_path or f.path
        case FileStatus.ADDED | FileStatus.DELETED:
            return None


class Located(Protocol):
    """What scoping needs to know about one finding."""

    @property
    def path(self) -> str:
        """Repository-relative path on the side the finding was reported for."""
        ...

    @property
    def line(self) -> int | None:
        """First line, 1-based."""
        ...

    @property
    def rule_id(self) -> str | None:
        """The tool's rule code."""
        ...

    @property
    def message(self) -> str:
        """What the tool said."""
        ...


Key = tuple[str | None, str]
T = TypeVar("T", bound=Located)


def finding_key(finding: Located, text_lines: tuple[str, ...] | None) -> Key:
    """Identity of a finding for the base comparison: rule and stripped line content.

    A finding without a line (or whose line is not in the file) is keyed by its message.
    """
    if finding.line is not None and text_lines is not None and 0 < finding.line <= len(text_lines):
        return (finding.rule_id, text_lines[finding.line - 1].strip())
    return (finding.rule_id, "\0" + finding.message)


@dataclass(frozen=True)
class ScopeResult(Generic[T]):
    """Findings the PR answers for, and how many were dropped as pre-existing or out of scope."""

    kept: tuple[T, ...]
    dropped: int


def scope_findings(
    head: Iterable[T],
    base: Iterable[Located] | None,
    scope: DiffScope,
    head_lines: Mapping[str, tuple[str, ...]],
    base_lines: Mapping[str, tuple[str, ...]],
) -> ScopeResult[T]:
    """Keep head findings on changed lines, or on untouched lines when new compared to base.

    ``base`` is None when the tool did not run on the base side: then only findings on
    changed lines are kept. ``head_lines``/``base_lines`` map each side's paths to the file's
    lines. Base findings use base paths.
    """
    remaining: Counter[tuple[str, Key]] = Counter()
    on_line: Counter[tuple[str, str | None, int]] = Counter()
    for b in base or ():
        remaining[(b.path, finding_key(b, base_lines.get(b.path)))] += 1
        if b.line is not None:
            on_line[(b.path, b.rule_id, b.line)] += 1
    kept: list[T] = []
    dropped = 0
    for f in head:
        if not scope.touched(f.path):
            dropped += 1
        elif scope.hits(f.path, f.line):
            old = _rewritten_finding(f, scope, on_line)
            if old is None:
                kept.append(f)
            else:
                on_line[old] -= 1
                dropped += 1
        elif base is None:
            dropped += 1
        else:
            slot = (scope.base_paths.get(f.path, ""), finding_key(f, head_lines.get(f.path)))
            if remaining[slot] > 0:
                remaining[slot] -= 1
                dropped += 1
            else:
                kept.append(f)
    return ScopeResult(tuple(kept), dropped)


def _rewritten_finding(
    finding: Located, scope: DiffScope, on_line: Counter[tuple[str, str | None, int]]
) -> tuple[str, str | None, int] | None:
    """The base finding of the same rule on a line removed by the hunk that added
    ``finding``'s line (one not paired yet), or None."""
    base = scope.base_paths.get(finding.path)
    if base is None:
        return None
    for line in sorted(scope.rewritten_from(finding.path, finding.line)):
        slot = (base, finding.rule_id, line)
        if on_line[slot] > 0:
            return slot
    return None
