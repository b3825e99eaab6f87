"""Each code file of a PR read on both sides by one rule's reader.

Rules that count constructs over the PR's code files (line-break checks, credential headers in
lists of header names, regexes of refusing checks) read every changed code file's base and
head the same way: an added file has nothing on its base side, a deleted file nothing on its
head side, and a file either side of which the reader cannot read on a tree is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import PathKind, classify

T = TypeVar("T")


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
) -> list[CodeSides[T]]:
    """Every non-binary code file of ``files`` read by ``read(path, source)`` on both sides
    (``read`` returns None for a source it cannot read on a tree; such a file is left out)."""
    out: list[CodeSides[T]] = []
    for f in files:
        if f.binary or classify(f.path) is not PathKind.CODE:
            continue
        old_path = f.old_path or f.path
        old_source = None if f.status is FileStatus.ADDED else base.read(old_path)
        new_source = None if f.status is FileStatus.DELETED else head.read(f.path)
        old = [] if f.status is FileStatus.ADDED else read(old_path, old_source)
        new = [] if f.status is FileStatus.DELETED else read(f.path, new_source)
        if old is not None and new is not None:
            out.append(CodeSides(f.path, old_path, old_source, new_source, old, new))
    return out
