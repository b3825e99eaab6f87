"""The diff model: unified diff text parsed with unidiff into our own frozen values.

This is the only module that imports :mod:`unidiff`. The values (:class:`Diff`,
:class:`FileDiff`, :class:`Hunk`, :class:`FileStatus`) live in :mod:`.diff_model` and are
re-exported here, where the rest of the code imports them from.

How :func:`parse_diff` reads a diff:

* The text is cut into one chunk per ``diff --git`` line (a hunk body line always starts with
  `` ``, ``+``, ``-`` or ``\\``, so such a line is always a file boundary). Each chunk's
  extended header (paths, modes, rename/copy, similarity, binary) is read by
  :mod:`.diff_header`. unidiff then validates the file's hunks in its metadata mode (every
  body line a context, ``+``, ``-`` or ``\\`` line, counts matching the ``@@`` header) and
  gives their headers; one pass over the hunk bodies along those validated hunks takes the
  added and removed lines. unidiff's full mode would build an object per diff line (context
  included) only for us to copy two fields out of it: this way the whole parse costs about
  half a full ``PatchSet``, and peak memory stays well below it. A file unidiff rejects costs
  only that file.
* A chunk unidiff rejects (``UnidiffParseError``: a truncated or hand-edited patch) is kept as a
  :class:`FileDiff` with ``patch_available=False``, no hunks, and insertions/deletions counted
  leniently from its ``+``/``-`` lines; the reason is recorded in :attr:`Diff.problems`.
* Text before the first ``diff --git`` line (or a whole diff without one: plain ``diff -u``
  output) is handed to unidiff as is; its files are converted from unidiff's own fields.
* Line text drops the line terminator, including the ``\\r`` of a CRLF line; counts are
  those of ``git diff --numstat`` (binary files count 0 and have ``binary=True``).
"""

from __future__ import annotations

import codecs
from typing import Any, cast

from unidiff.errors import UnidiffParseError
from unidiff.patch import Hunk as UHunk
from unidiff.patch import PatchedFile, PatchSet

from pr_review.sources.diff_header import (
    DEV_NULL,
    GIT_HEADER,
    FileHeader,
    parse_header,
    strip_prefix,
    unquote_path,
)
from pr_review.sources.diff_model import Diff, FileDiff, FileStatus, Hunk, join_type_changes

__all__ = ["Diff", "DiffReader", "FileDiff", "FileStatus", "Hunk", "parse_diff"]


def parse_diff(raw: str | bytes) -> Diff:
    """Parse unified diff text (git format) into a :class:`Diff`; never raises on content.

    Bytes are decoded as UTF-8 with replacement. Handles renames and copies (with and
    without content change), deletions, new empty files, binary files, mode-only changes,
    ``\\ No newline at end of file``, CRLF line endings, submodule pointer changes and an
    empty diff. See the module docstring for what happens to a patch unidiff rejects.
    """
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    files: list[FileDiff] = []
    problems: list[str] = []
    _parse_chunks(text, files, problems)
    return Diff(files=join_type_changes(files), raw=text, problems=tuple(problems))


_MARKER = "\n" + GIT_HEADER
"""What starts every file after the first: a ``diff --git`` line."""


class DiffReader:
    """:func:`parse_diff` fed piece by piece, as ``git diff`` writes its output.

    A file is parsed as soon as the next file's ``diff --git`` line arrives, so parsing
    runs while git is still producing the rest; the result is the same as parsing the whole
    text at once. Pieces may split a line, a UTF-8 sequence or a ``diff --git`` line
    anywhere.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._done: list[str] = []
        """Text already parsed, in order: whole files (and any text before the first)."""
        self._pending: list[str] = []
        """Pieces after the last ``diff --git`` seen: a file not known to be complete yet."""
        self._files: list[FileDiff] = []
        self._problems: list[str] = []

    def feed(self, data: str | bytes) -> None:
        """Take the next piece of the diff's text (bytes are UTF-8, decoded leniently)."""
        text = self._decoder.decode(data) if isinstance(data, bytes) else data
        if not text:
            return
        self._pending.append(text)
        if _MARKER not in text:
            # Nothing ends here (a marker split across pieces is found with the next one
            # that holds a marker, or by ``finish``): no joining, so a huge file costs
            # one pass, not one per piece.
            return
        buffer = "".join(self._pending)
        last = buffer.rfind(_MARKER) + 1
        self._pending = [buffer[last:]]
        self._take(buffer[:last])

    def finish(self) -> Diff:
        """The :class:`Diff` of everything fed."""
        self.feed(self._decoder.decode(b"", final=True))
        rest = "".join(self._pending)
        self._pending = []
        self._take(rest)
        raw = "".join(self._done)  # each character was held once until here
        self._done = []
        return Diff(
            files=join_type_changes(self._files), raw=raw, problems=tuple(self._problems)
        )

    def _take(self, text: str) -> None:
        """Parse complete files' text and keep it for :attr:`Diff.raw`."""
        if text:
            _parse_chunks(text, self._files, self._problems)
            self._done.append(text)


def _parse_chunks(text: str, files: list[FileDiff], problems: list[str]) -> None:
    """Parse the chunks ``text`` holds (it ends where a file ends) into ``files``."""
    for start, end in _chunks(text):
        chunk = text[start:end]
        if chunk.startswith(GIT_HEADER):
            files.append(_git_file(chunk, problems))
        elif chunk.strip():
            files.extend(_plain_files(chunk, problems))


def _chunks(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the text before the first file and of each file's chunk."""
    starts = [0]
    pos = text.find(_MARKER)
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find(_MARKER, pos + 1)
    ends = [*starts[1:], len(text)]
    return [(s, e) for s, e in zip(starts, ends, strict=True) if e > s]


def _git_file(chunk: str, problems: list[str]) -> FileDiff:
    """One ``diff --git`` chunk as a :class:`FileDiff`."""
    header = parse_header(chunk)
    path = header.new_path or header.old_path or ""
    hunks: tuple[Hunk, ...] = ()
    insertions = deletions = 0
    patch_available = True
    if header.has_hunks and not header.binary:
        # From the ``---`` line on: unidiff's reading of the ``diff --git`` line splits a path
        # with spaces wrongly, and the header is already read.
        body = chunk[header.patch_start :]
        try:
            patched = PatchSet(body, metadata_only=True)
        except UnidiffParseError as exc:
            problems.append(f"{path}: unparsable patch ({exc}); counted leniently, no hunks")
            patch_available = False
            insertions, deletions = _lenient_counts(chunk)
        else:
            hunks, insertions, deletions = _read_hunks(body, [h for f in patched for h in f])
    return FileDiff(
        path=path,
        status=_status(header),
        hunks=hunks,
        old_path=header.old_path if header.renamed or header.copied else None,
        binary=header.binary,
        old_mode=header.old_mode,
        new_mode=header.new_mode,
        submodule=_SUBMODULE in (header.old_mode, header.new_mode),
        similarity=header.similarity,
        patch_available=patch_available,
        insertions=insertions,
        deletions=deletions,
    )


_SUBMODULE = "160000"


def _status(header: FileHeader) -> FileStatus:
    if header.added:
        return FileStatus.ADDED
    if header.deleted:
        return FileStatus.DELETED
    if header.renamed:
        return FileStatus.RENAMED
    if header.copied:
        return FileStatus.COPIED
    return FileStatus.MODIFIED


def _read_hunks(body: str, validated: list[UHunk]) -> tuple[tuple[Hunk, ...], int, int]:
    """Our hunks from one file's patch text, walked along the hunks unidiff validated.

    unidiff (metadata mode) has checked that every hunk's lines are context, ``+``, ``-`` or
    ``\\`` and that they add up to its header's lengths; this single pass then takes the
    added and removed lines with their numbers, in the same way unidiff counts them.
    """
    lines = body.split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith("@@ "):
        i += 1
    hunks = []
    insertions = deletions = 0
    for uh in validated:
        i += 1  # the hunk's own @@ line
        old_no, new_no = uh.source_start, uh.target_start
        old_left, new_left = uh.source_length, uh.target_length
        added: list[tuple[int, str]] = []
        removed: list[tuple[int, str]] = []
        while old_left > 0 or new_left > 0:
            line = lines[i]
            i += 1
            kind = line[:1]
            if kind == "+":
                added.append((new_no, line[1:-1] if line[-1:] == "\r" else line[1:]))
                new_no += 1
                new_left -= 1
            elif kind == "-":
                removed.append((old_no, line[1:-1] if line[-1:] == "\r" else line[1:]))
                old_no += 1
                old_left -= 1
            elif kind != "\\":  # context (" ", or an empty line some tools write for it)
                old_no += 1
                new_no += 1
                old_left -= 1
                new_left -= 1
        while i < len(lines) and not lines[i].startswith("@@ "):
            i += 1  # "\\ No newline at end of file" after the hunk
        insertions += len(added)
        deletions += len(removed)
        hunks.append(_hunk(uh, added, removed))
    return tuple(hunks), insertions, deletions


def _hunks(pfile: PatchedFile) -> tuple[tuple[Hunk, ...], int, int]:
    """Convert one unidiff ``PatchedFile``'s hunks in a single pass over its lines.

    Reads each unidiff ``Line``'s attributes once; unidiff's own ``added``/``removed``
    properties recount on every call, so the counts are taken here.
    """
    hunks = []
    insertions = deletions = 0
    for uh in pfile:
        added: list[tuple[int, str]] = []
        removed: list[tuple[int, str]] = []
        # unidiff types the numbers Optional; a +/- line always has its side's number.
        for line in cast("list[Any]", uh):
            kind = line.line_type
            if kind == "+":
                added.append((line.target_line_no, _strip_eol(line.value)))
            elif kind == "-":
                removed.append((line.source_line_no, _strip_eol(line.value)))
        insertions += len(added)
        deletions += len(removed)
        hunks.append(_hunk(uh, added, removed))
    return tuple(hunks), insertions, deletions


def _hunk(uh: UHunk, added: list[tuple[int, str]], removed: list[tuple[int, str]]) -> Hunk:
    """Our frozen hunk from unidiff's header fields and the lines collected from its body."""
    return Hunk(
        old_start=uh.source_start,
        old_length=uh.source_length,
        new_start=uh.target_start,
        new_length=uh.target_length,
        section=uh.section_header.rstrip("\r"),
        added=tuple(added),
        removed=tuple(removed),
    )


def _strip_eol(value: str) -> str:
    """The line's text without ``\\n`` or ``\\r\\n`` (git counts a CRLF line as one line)."""
    if value.endswith("\n"):
        value = value[:-1]
    if value.endswith("\r"):
        value = value[:-1]
    return value


def _lenient_counts(chunk: str) -> tuple[int, int]:
    """``+``/``-`` lines after the first hunk header: counts for a patch unidiff rejected."""
    body = chunk[chunk.find("\n@@ ") + 1 :]
    insertions = deletions = 0
    for line in body.split("\n"):
        if line.startswith("+"):
            insertions += 1
        elif line.startswith("-"):
            deletions += 1
    return insertions, deletions


def _plain_files(chunk: str, problems: list[str]) -> list[FileDiff]:
    """Files of text without ``diff --git`` headers (``diff -u``), from unidiff's own fields."""
    try:
        patched = PatchSet(chunk)
    except UnidiffParseError as exc:
        problems.append(f"text outside any git file header could not be parsed ({exc})")
        return []
    files = []
    for pfile in patched:
        hunks, insertions, deletions = _hunks(pfile)
        old = _plain_path(pfile.source_file)
        new = _plain_path(pfile.target_file)
        if old is None:
            status = FileStatus.ADDED
        elif new is None:
            status = FileStatus.DELETED
        elif old != new:
            status = FileStatus.RENAMED
        else:
            status = FileStatus.MODIFIED
        files.append(
            FileDiff(
                path=new or old or "",
                status=status,
                hunks=hunks,
                old_path=old if status is FileStatus.RENAMED else None,
                binary=bool(pfile.is_binary_file),
                insertions=insertions,
                deletions=deletions,
            )
        )
    return files


def _plain_path(name: str | None) -> str | None:
    if not name or name == DEV_NULL:
        return None
    return strip_prefix(unquote_path(name.split("\t", 1)[0]))
