"""The extended header of one file in a git diff: paths, modes, rename/copy and binary markers.

unidiff's reading of these lines is lossy (a copy looks like a rename, a path with spaces in a
``diff --git`` line is ambiguous, quoted paths keep their quotes), so :mod:`.diff` lets unidiff
parse the hunks and reads the header with this module. Pure string handling, no unidiff.
"""

from __future__ import annotations

from dataclasses import dataclass

DEV_NULL = "/dev/null"
GIT_HEADER = "diff --git "

# Lines git may write between ``diff --git`` and the first hunk (gitdiff.c, "extended headers").
_HEADER_PREFIXES = (
    "old mode ",
    "new mode ",
    "deleted file mode ",
    "new file mode ",
    "copy from ",
    "copy to ",
    "rename from ",
    "rename to ",
    "similarity index ",
    "dissimilarity index ",
    "index ",
    "--- ",
    "+++ ",
)
_BINARY_MARKERS = ("Binary files ", "GIT binary patch")
# Prefixes git puts before paths: a/ b/ by default, c/ i/ o/ w/ with diff.mnemonicPrefix,
# 1/ 2/ with --no-index.
_PATH_PREFIXES = frozenset("abciow12")
_C_ESCAPES = {
    "a": 0x07,
    "b": 0x08,
    "t": 0x09,
    "n": 0x0A,
    "v": 0x0B,
    "f": 0x0C,
    "r": 0x0D,
    '"': 0x22,
    "\\": 0x5C,
}


@dataclass(frozen=True, slots=True)
class FileHeader:
    """What the extended header lines of one file say."""

    old_path: str | None
    """Path before the change; None for an added file."""
    new_path: str | None
    """Path after the change; None for a deleted file."""
    added: bool
    deleted: bool
    renamed: bool
    copied: bool
    binary: bool
    has_hunks: bool
    patch_start: int
    """Offset of the ``--- `` line (where a plain unified diff of the file starts), or 0."""
    old_mode: str | None
    new_mode: str | None
    similarity: int | None


def unquote_path(text: str) -> str:
    """Undo git's C-style quoting of a path (``"a/t\\303\\251st"``); plain text is returned as is.

    Octal escapes are bytes of a UTF-8 path; invalid sequences become U+FFFD.
    """
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return text
    body = text[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1]
        octal = body[i + 1 : i + 4]
        if len(octal) == 3 and all(c in "01234567" for c in octal):
            out.append(int(octal, 8) & 0xFF)
            i += 4
        elif nxt in _C_ESCAPES:
            out.append(_C_ESCAPES[nxt])
            i += 2
        else:  # unknown escape: keep it literally rather than guess
            out += ("\\" + nxt).encode("utf-8")
            i += 2
    return out.decode("utf-8", errors="replace")


def strip_prefix(path: str) -> str:
    """Drop git's ``a/``-style side prefix from an unquoted path."""
    if len(path) > 2 and path[1] == "/" and path[0] in _PATH_PREFIXES:
        return path[2:]
    return path


def _side_path(value: str) -> str | None:
    """The path of a ``---``/``+++`` line value; None for ``/dev/null``."""
    # git appends a tab when the name has a space (for GNU patch); real tabs are quoted.
    value = value.split("\t", 1)[0]
    if value == DEV_NULL:
        return None
    return strip_prefix(unquote_path(value))


def _git_line_path(rest: str) -> str:
    """The path of a ``diff --git`` line whose two sides name the same file.

    Only used when no rename/copy or ``---``/``+++`` line names the paths: then both sides are
    equal, so an unquoted line splits exactly in the middle even when the path has spaces.
    """
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        while end != -1 and rest[end - 1] == "\\":
            end = rest.find('" ', end + 1)
        first = rest[: end + 1] if end != -1 else rest
        return strip_prefix(unquote_path(first))
    middle = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[middle] == " ":
        return strip_prefix(rest[:middle])
    return strip_prefix(rest.split(" ", 1)[0])


def header_end(chunk: str) -> int:
    """Offset where the header of a one-file chunk stops (its first hunk or binary marker)."""
    pos = 0
    first = True
    while pos < len(chunk):
        eol = chunk.find("\n", pos)
        end = len(chunk) if eol == -1 else eol + 1
        line = chunk[pos:end]
        if not first and not line.startswith(_HEADER_PREFIXES):
            return pos
        first = False
        pos = end
    return pos


def parse_header(chunk: str) -> FileHeader:
    """Read the header of one ``diff --git`` chunk (the chunk starts with that line)."""
    stop = header_end(chunk)
    lines = chunk[:stop].split("\n")
    git_line = lines[0].rstrip("\r")
    rest = chunk[stop:]
    values: dict[str, str] = {}
    for raw in lines[1:]:
        line = raw.rstrip("\r")
        for prefix in _HEADER_PREFIXES:
            if line.startswith(prefix):
                values[prefix] = line[len(prefix) :]
                break
    renamed = "rename from " in values
    copied = "copy from " in values
    added = "new file mode " in values
    deleted = "deleted file mode " in values
    old_path, new_path = _paths(values, git_line[len(GIT_HEADER) :], renamed, copied)
    old_mode, new_mode = _modes(values, added=added, deleted=deleted)
    return FileHeader(
        old_path=None if added else old_path,
        new_path=None if deleted else new_path,
        added=added,
        deleted=deleted,
        renamed=renamed,
        copied=copied,
        binary=rest.startswith(_BINARY_MARKERS),
        has_hunks=rest.startswith("@@ "),
        patch_start=_patch_start(chunk, stop),
        old_mode=old_mode,
        new_mode=new_mode,
        similarity=_percent(values.get("similarity index ")),
    )


def _patch_start(chunk: str, stop: int) -> int:
    pos = chunk.rfind("\n--- ", 0, stop)
    return pos + 1 if pos != -1 else 0


def _paths(values: dict[str, str], git_rest: str, renamed: bool, copied: bool) -> tuple[str, str]:
    """Old and new path, from the most reliable lines present."""
    if renamed or copied:
        kind = "rename" if renamed else "copy"
        old = unquote_path(values.get(f"{kind} from ", ""))
        new = unquote_path(values.get(f"{kind} to ", ""))
        if old and new:
            return old, new
    old_side = _side_path(values["--- "]) if "--- " in values else None
    new_side = _side_path(values["+++ "]) if "+++ " in values else None
    if old_side is not None or new_side is not None:
        return old_side or new_side or "", new_side or old_side or ""
    path = _git_line_path(git_rest)
    return path, path


def _modes(values: dict[str, str], *, added: bool, deleted: bool) -> tuple[str | None, str | None]:
    """Old and new git file modes (``100644``, ``100755``, ``120000``, ``160000``)."""
    index_mode = None
    index = values.get("index ")
    if index is not None and " " in index:
        index_mode = index.rsplit(" ", 1)[1]
    old = values.get("old mode ") or values.get("deleted file mode ") or index_mode
    new = values.get("new mode ") or values.get("new file mode ") or index_mode
    return (None if added else old), (None if deleted else new)


def _percent(value: str | None) -> int | None:
    if value is None:
        return None
    digits = value.strip().rstrip("%")
    return int(digits) if digits.isdigit() else None
