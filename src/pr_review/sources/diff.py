"""The diff model: unified diff text parsed with unidiff into our own frozen values.

This is the only module that imports :mod:`unidiff`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pr_review.schema.enums import ChangeType


class FileStatus(StrEnum):
    """How the diff touched a file, in git's terms (copies kept apart from renames)."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"

    def change_type(self) -> ChangeType:
        """The evidence-pack vocabulary: a copy is a new file."""
        return {
            FileStatus.ADDED: ChangeType.ADDED,
            FileStatus.MODIFIED: ChangeType.MODIFIED,
            FileStatus.DELETED: ChangeType.DELETED,
            FileStatus.RENAMED: ChangeType.RENAMED,
            FileStatus.COPIED: ChangeType.ADDED,
        }[self]


@dataclass(frozen=True, slots=True)
class Hunk:
    """One ``@@`` hunk. Line numbers are 1-based; ``old`` is the base side, ``new`` the head."""

    old_start: int
    old_length: int
    new_start: int
    new_length: int
    section: str
    added: tuple[tuple[int, str], ...]
    """``(new line number, text without newline)`` of each added line."""
    removed: tuple[tuple[int, str], ...]
    """``(old line number, text without newline)`` of each removed line."""

    @property
    def new_range(self) -> range:
        """New-side lines the hunk shows (added and context): valid RIGHT-side anchors."""
        return range(self.new_start, self.new_start + self.new_length)

    @property
    def old_range(self) -> range:
        """Old-side lines the hunk shows (removed and context): valid LEFT-side anchors."""
        return range(self.old_start, self.old_start + self.old_length)


@dataclass(frozen=True, slots=True)
class FileDiff:
    """One file's change."""

    path: str
    """The path after the change (the old path for a deletion)."""
    status: FileStatus
    hunks: tuple[Hunk, ...] = ()
    old_path: str | None = None
    """The path before a rename or copy."""
    binary: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    submodule: bool = False
    similarity: int | None = None
    """Similarity index of a rename or copy, in percent."""
    patch_available: bool = True
    """False when the source listed the file without a patch (GitHub, very large files)."""
    insertions: int = 0
    deletions: int = 0

    @property
    def change_type(self) -> ChangeType:
        """The evidence-pack change type."""
        return self.status.change_type()

    @property
    def added_line_numbers(self) -> tuple[int, ...]:
        """New-side numbers of every added line, ascending."""
        return tuple(n for h in self.hunks for n, _ in h.added)

    @property
    def removed_line_numbers(self) -> tuple[int, ...]:
        """Old-side numbers of every removed line, ascending."""
        return tuple(n for h in self.hunks for n, _ in h.removed)

    @property
    def mode_changed(self) -> bool:
        """True when only (or also) the file mode changed."""
        return (
            self.old_mode is not None
            and self.new_mode is not None
            and self.old_mode != self.new_mode
        )


@dataclass(frozen=True, slots=True)
class Diff:
    """A whole pull request diff."""

    files: tuple[FileDiff, ...]
    raw: str
    """The unified diff text (decoded, undecodable bytes replaced)."""

    @property
    def insertions(self) -> int:
        """Added lines over all files."""
        return sum(f.insertions for f in self.files)

    @property
    def deletions(self) -> int:
        """Removed lines over all files."""
        return sum(f.deletions for f in self.files)

    def file(self, path: str) -> FileDiff | None:
        """The file diff for ``path`` (new path), if the PR touched it."""
        for f in self.files:
            if f.path == path:
                return f
        return None


def parse_diff(raw: str | bytes) -> Diff:
    """Parse unified diff text (git format) into a :class:`Diff`; never raises on content.

    Bytes are decoded as UTF-8 with replacement. Handles renames and copies (with and
    without content change), deletions, new empty files, binary files, mode-only changes,
    ``\\ No newline at end of file``, CRLF line endings, submodule pointer changes and an
    empty diff.
    """
    raise NotImplementedError("implemented in the foundation issue")
