"""Where trigger words occur: every word of a category set found in one pass over a text.

A category's rules only match lines holding one of its trigger words (lower-case
substrings, see :class:`~pr_review.evidence.rules.Category`), so the content scans first
find those lines. One ``str.find`` pass per word costs the text's length once per word:
with the budgeted categories' 66 words over the 5.8 MB added by an 800-file release PR,
that was 385 MB of scanning. An Aho-Corasick automaton (pyahocorasick, the only importer
of it) finds every word in one pass, at C speed.

This module only says *which lines* hold which words; the rules themselves still run as
regular expressions on those lines (:mod:`.scan`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Protocol, cast

import ahocorasick


class _Automaton(Protocol):
    """The part of ``ahocorasick.Automaton`` used here (the library ships no type stubs)."""

    def iter(self, text: str) -> Iterable[tuple[int, str]]: ...


@lru_cache(maxsize=64)
def _automaton(words: frozenset[str]) -> _Automaton | None:
    """The automaton of the non-empty ``words`` (a frozenset: its hash is kept, so callers
    that pass the same set each time pay no sorting or hashing per call)."""
    wanted = sorted(w for w in words if w)
    if not wanted:
        return None
    built = ahocorasick.Automaton()
    for word in wanted:
        built.add_word(word, word)
    built.make_automaton()
    return cast("_Automaton", built)


def lines_holding(
    text: str, words: frozenset[str], cap: int | None = None
) -> dict[str, list[int]]:
    """For each of ``words`` found in ``text``: the indexes of the lines holding it.

    Lines are separated by ``\\n`` and counted from 0; each word's lines are distinct and in
    text order, at most ``cap`` (at least 1) of them when given. Words must hold no ``\\n``
    (so a match lies within one line); empty words are ignored. Words absent from ``text``
    are absent from the result. Matching is exact: for case-insensitive words callers pass
    ``text.lower()``. Indexes, not offsets, because lower-casing can change offsets
    (``"İ".lower()`` is two characters) but never the line breaks.
    """
    automaton = _automaton(words) if text else None
    if automaton is None:
        return {}
    found: dict[str, list[int]] = {}
    line = 0
    scanned = 0
    for end, word in automaton.iter(text):
        # Matches come in order of their last character; a match never crosses a line, so
        # its line is the one holding ``end``. The newline count only moves forward.
        line += text.count("\n", scanned, end)
        scanned = end
        lines = found.get(word)
        if lines is None:
            found[word] = [line]
        elif lines[-1] != line and (cap is None or len(lines) < cap):
            lines.append(line)
    return found


def lines_with_any(found: Mapping[str, Iterable[int]], words: Iterable[str]) -> list[int]:
    """The indexes, ascending and distinct, of the lines ``found`` gives for any of ``words``."""
    return sorted({line for word in words for line in found.get(word, ())})
