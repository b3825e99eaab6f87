"""Commit message trailers (``Key: value`` lines), read the way ``git interpret-trailers`` does.

Rules followed (git's trailer.c, default configuration):

* Trailers live in the message's last paragraph, never in the subject paragraph. Trailing
  blank lines and comment lines (``#``) are ignored. As for ``%(trailers)`` in ``git log``, a
  ``---`` line is not a patch divider in a commit message.
* A line is a trailer when it is ``token: value`` with a token of letters, digits and ``-``
  (whitespace before the colon allowed). A line starting with whitespace continues the previous
  trailer (folded into it with one space).
* The paragraph is a trailer block when every line is a trailer or a continuation, or when at
  least one git-generated trailer (``Signed-off-by:``, ``(cherry picked from commit``) is there
  and at least 25% of its lines are trailers.

Keys are kept as written; compare them case-insensitively (:func:`trailer_values`).
"""

from __future__ import annotations

import re

_TRAILER = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$")
_GIT_GENERATED = ("signed-off-by: ", "(cherry picked from commit ")


def parse_trailers(message: str) -> tuple[tuple[str, str], ...]:
    """``(key, value)`` pairs of the message's trailer block, in order; empty when there is none."""
    paragraphs = _paragraphs(message)
    if len(paragraphs) < 2:  # a lone paragraph is the subject (and body), never trailers
        return ()
    block = paragraphs[-1]
    trailers: list[list[str]] = []
    recognised = 0
    generated = False
    other = 0
    for line in block:
        match = _TRAILER.match(line)
        if match:
            trailers.append([match.group(1), match.group(2).strip()])
            recognised += 1
            generated = generated or line.lower().startswith(_GIT_GENERATED)
        elif line[:1] in (" ", "\t") and trailers:
            trailers[-1][1] = f"{trailers[-1][1]} {line.strip()}".strip()
        else:
            generated = generated or line.lower().startswith(_GIT_GENERATED)
            other += 1
    if not trailers:
        return ()
    if other and not (generated and recognised * 4 >= recognised + other):
        return ()
    return tuple((key, value) for key, value in trailers)


def trailer_values(trailers: tuple[tuple[str, str], ...], key: str) -> tuple[str, ...]:
    """Values of every trailer whose key equals ``key``, ignoring case."""
    wanted = key.lower()
    return tuple(value for k, value in trailers if k.lower() == wanted)


def _paragraphs(message: str) -> list[list[str]]:
    """Non-empty paragraphs of the message (lists of lines), comment lines dropped."""
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for raw in message.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if line.startswith("#"):
            continue
        if line:
            current.append(line)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs
