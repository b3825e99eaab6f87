"""Glob patterns over repository paths, with ``**``, compiled once to regular expressions.

Used by configured subsystems and risk overrides. A pattern without a ``/`` matches at any
depth (``*.sql`` matches ``db/m/001.sql``), as ``.gitignore`` does; a trailing ``/`` matches
everything under a directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


class GlobError(ValueError):
    """A glob pattern that cannot be used (empty, unbalanced brackets...)."""


@dataclass(frozen=True)
class Glob:
    """A compiled glob."""

    pattern: str
    regex: re.Pattern[str]

    def matches(self, path: str) -> bool:
        """True when ``path`` (repository-relative, ``/``-separated) matches."""
        return self.regex.match(path) is not None


def compile_glob(pattern: str) -> Glob:
    """Compile ``pattern``; raises :class:`GlobError` when it is unusable."""
    return _compile(pattern)


@lru_cache(maxsize=1024)
def _compile(pattern: str) -> Glob:
    text = pattern.strip()
    if not text or text in {"/", "!"}:
        raise GlobError(f"empty glob pattern {pattern!r}")
    if text.count("[") != text.count("]"):
        raise GlobError(f"unbalanced brackets in glob pattern {pattern!r}")
    anchored = "/" in text.rstrip("/")
    directory = text.endswith("/")
    body = text.strip("/")
    regex = translate(body)
    prefix = "" if anchored else "(?:.*/)?"
    suffix = "/.*" if directory else "(?:/.*)?"
    try:
        compiled = re.compile(f"^{prefix}{regex}{suffix}$", re.DOTALL)
    except re.error as exc:
        raise GlobError(f"invalid glob pattern {pattern!r}: {exc}") from exc
    return Glob(pattern, compiled)


def translate(body: str) -> str:
    """Glob body to regex: ``**`` spans directories, ``*`` and ``?`` stay within one."""
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            end = body.index("]", i)
            inner = body[i + 1 : end].replace("\\", "\\\\")
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            out.append(f"[{inner}]")
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)
