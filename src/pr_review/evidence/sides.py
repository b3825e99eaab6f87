"""Each code file of a PR read on both sides by one rule's reader.

Rules that count constructs over the PR's code files (line-break checks, credential headers in
lists of header names, regexes of refusing checks) read every changed code file's base and
head the same way: an added file has nothing on its base side, a deleted file nothing on its
head side, and a file either side of which the reader cannot read on a tree is left out.
:func:`first_moved` finds, for the rules that are red when a count moves (path-containment
checks, origin comparisons), the first construct the PR added or removed, and where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify

T = TypeVar("T")


class Located(Protocol):
    """A construct a counting rule found: the 1-based line it is on."""

    @property
    def line(self) -> int: ...


L = TypeVar("L", bound=Located)


@dataclass(frozen=True)
class CodeSides(Generic[T]):
    """One code file of the PR: what the reader found in its base and its head."""

    path: str
    """The head path (the file's path after the PR)."""
    old_path: str
    old_source: str | None
    new_source: str | None
    old: list[T]
    new: list[T]


def code_sides(
    files: Sequence[FileDiff],
    base: RepoTree,
    head: RepoTree,
    read: Callable[[str, str | None], list[T] | None],
    read_head: Callable[[str, str | None], list[T] | None] | None = None,
) -> list[CodeSides[T]]:
    """Every non-binary code file of ``files`` read by ``read(path, source)`` on both sides
    (``read_head`` on the head side when given: a reader that also looks at the side's other
    files; ``read`` returns None for a source it cannot read on a tree; such a file is left
    out)."""
    read_head = read_head or read
    out: list[CodeSides[T]] = []
    for f in files:
        if f.binary or classify(f.path) is not PathKind.CODE:
            continue
        old_path = f.old_path or f.path
        old_source = None if f.status is FileStatus.ADDED else base.read(old_path)
        new_source = None if f.status is FileStatus.DELETED else head.read(f.path)
        old = [] if f.status is FileStatus.ADDED else read(old_path, old_source)
        new = [] if f.status is FileStatus.DELETED else read_head(f.path, new_source)
        if old is not None and new is not None:
            out.append(CodeSides(f.path, old_path, old_source, new_source, old, new))
    return out


@dataclass(frozen=True)
class Moved(Generic[L]):
    """The first construct whose count moved across the PR's files, and where."""

    path: str
    """The head path of the file it is in."""
    item: L
    added: bool
    """True when the PR's head has more of it; False when its base had more."""
    came: int
    """How many constructs the head has that the base had not (all kinds)."""
    gone: int

    @property
    def verb(self) -> str:
        return "added" if self.added else "removed"

    @property
    def where(self) -> str:
        return f"line {self.item.line}" + ("" if self.added else " of the base file")


def first_moved(sides: Sequence[CodeSides[L]], key: Callable[[L], str]) -> Moved[L] | None:
    """Counted by ``key`` over all of the PR's files (so a construct moved between files is no
    change): the first file, in the PR's order, holding a construct the head has more or fewer
    of than the base, with the first such construct (an added one before a removed one)."""
    before = Counter(key(c) for s in sides for c in s.old)
    after = Counter(key(c) for s in sides for c in s.new)
    if before == after:
        return None
    came, gone = after - before, before - after
    counts = sum(came.values()), sum(gone.values())
    for side in sides:
        added = next((c for c in side.new if came[key(c)] > 0), None)
        if added is not None:
            return Moved(side.path, added, True, *counts)
        removed = next((c for c in side.old if gone[key(c)] > 0), None)
        if removed is not None:
            return Moved(side.path, removed, False, *counts)
    return None


def red_when_moved(
    factor: str, moved: Moved[L] | None, why: Callable[[Moved[L]], str]
) -> list[RiskFactor]:
    """The one red factor of a counting rule whose count moved (``why`` says what moved and
    why it matters), or none."""
    if moved is None:
        return []
    return [RiskFactor(factor=factor, files=(moved.path,), severity=FactorSeverity.RED,
                       why=why(moved))]
