"""The diff model's values: a diff, its files and hunks (frozen; built by :mod:`.diff`)."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """Binary content. A rename or copy without content change shows no content in the patch,
    so it stays False there even for a binary file (``git diff --numstat`` prints ``-``)."""
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
    def added_texts(self) -> tuple[str, ...]:
        """The text of every added line, in order."""
        return tuple(t for h in self.hunks for _, t in h.added)

    @property
    def removed_texts(self) -> tuple[str, ...]:
        """The text of every removed line, in order."""
        return tuple(t for h in self.hunks for _, t in h.removed)

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
    problems: tuple[str, ...] = ()
    """Parts of the text that could not be parsed, one line each (the files are still listed)."""

    @property
    def insertions(self) -> int:
        """Added lines over all files."""
        return sum(f.insertions for f in self.files)

    @property
    def deletions(self) -> int:
        """Removed lines over all files."""
        return sum(f.deletions for f in self.files)

    _by_path: dict[str, FileDiff] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    """Index of ``files`` by path, the first file for a path (built once)."""

    def __post_init__(self) -> None:
        for f in reversed(self.files):
            self._by_path[f.path] = f

    def file(self, path: str) -> FileDiff | None:
        """The file diff for ``path`` (new path), if the PR touched it."""
        return self._by_path.get(path)


def join_type_changes(files: list[FileDiff]) -> tuple[FileDiff, ...]:
    """One modified file for each type change (file <-> symlink <-> submodule).

    git writes a type change as a deletion followed by an addition of the same path, but
    counts it once (``--numstat``; ``T`` in ``--name-status``), and so do we.
    """
    joined: list[FileDiff] = []
    for f in files:
        prev = joined[-1] if joined else None
        if (
            prev is not None
            and prev.status is FileStatus.DELETED
            and f.status is FileStatus.ADDED
            and prev.path == f.path
        ):
            joined[-1] = FileDiff(
                path=f.path,
                status=FileStatus.MODIFIED,
                hunks=prev.hunks + f.hunks,
                binary=prev.binary or f.binary,
                old_mode=prev.old_mode,
                new_mode=f.new_mode,
                submodule=prev.submodule or f.submodule,
                patch_available=prev.patch_available and f.patch_available,
                insertions=prev.insertions + f.insertions,
                deletions=prev.deletions + f.deletions,
            )
        else:
            joined.append(f)
    return tuple(joined)
