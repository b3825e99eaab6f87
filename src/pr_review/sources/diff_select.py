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
