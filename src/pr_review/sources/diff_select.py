"""Parts of a raw git diff: the sections that touch a set of paths."""

from __future__ import annotations

from collections.abc import Set

_GIT_HEADER = "diff --git "


def select_files(raw: str, paths: Set[str]) -> str:
    """The parts of a git diff that touch ``paths`` (old or new path)."""
    return _filter(raw, paths, keep_named=True)


def drop_files(raw: str, paths: Set[str]) -> str:
    """The git diff without the parts that touch ``paths``."""
    return _filter(raw, paths, keep_named=False) if paths else raw


def _filter(raw: str, paths: Set[str], *, keep_named: bool) -> str:
    chunks: list[str] = []
    current: list[str] = []
    keep = False
    for line in raw.splitlines(keepends=True):
        if line.startswith(_GIT_HEADER):
            if keep:
                chunks.append("".join(current))
            current, keep = [line], _names_in(line, paths) is keep_named
        else:
            current.append(line)
    if keep:
        chunks.append("".join(current))
    return "".join(chunks)


def _names_in(header: str, paths: Set[str]) -> bool:
    """Whether a ``diff --git a/X b/Y`` line names one of ``paths`` (quoted names too)."""
    rest = header[len(_GIT_HEADER) :].strip()
    return any(rest.startswith(f"a/{p} ") or rest.endswith(f" b/{p}") for p in paths)


def sections(raw: str, paths: Set[str]) -> dict[str, str]:
    """Each file's part of a git diff, by path (new path; the old one for a deletion).

    A part whose header names no path of ``paths`` (an unusual quoted name) is left out;
    callers fall back to :func:`select_files` for those.
    """
    out: dict[str, str] = {}
    starts = [0] if raw.startswith(_GIT_HEADER) else []
    index = raw.find("\n" + _GIT_HEADER)
    while index != -1:
        starts.append(index + 1)
        index = raw.find("\n" + _GIT_HEADER, index + 1)
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(raw)
        header_end = raw.find("\n", start)
        header = raw[start + len(_GIT_HEADER) : header_end if header_end != -1 else end]
        name = _header_path(header, paths)
        if name is not None:
            out[name] = out.get(name, "") + raw[start:end]
    return out


def _header_path(rest: str, paths: Set[str]) -> str | None:
    """The path of ``paths`` a ``a/X b/Y`` header names: Y first, then X (a deletion)."""
    at = rest.find(" b/")
    while at != -1:
        if rest[at + 3 :] in paths:
            return rest[at + 3 :]
        at = rest.find(" b/", at + 1)
    if rest.startswith("a/"):
        at = rest.find(" b/")
        while at != -1:
            if rest[2:at] in paths:
                return rest[2:at]
            at = rest.find(" b/", at + 1)
    return None
