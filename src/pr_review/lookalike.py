"""Look-alike letters folded before a scan: text is matched as a reader would see it.

The content rules and the prompt-injection scan are case-insensitive regular expressions, and
their trigger words are looked up in lower-cased text. Neither sees through look-alikes:
"password" spelled with CYRILLIC SMALL LETTER A (U+0430), "disregard" with LATIN SMALL LETTER
DOTLESS I (U+0131, which ``str.lower`` keeps), fullwidth or mathematical letters.
:func:`fold` normalises once, before every such scan:

1. NFKC, which turns compatibility forms into their plain letters (fullwidth letters,
   LATIN SMALL LETTER LONG S U+017F -> ``s``, the ligature U+FB01 -> ``fi``);
2. every other non-ASCII character that Unicode's confusables data (UTS #39, through the
   ``confusable-homoglyphs`` package, the only importer of it) lists as confusable with an
   ASCII letter or digit becomes that character, keeping its case where the data allows
   (U+0430 -> ``a``, CYRILLIC CAPITAL LETTER A U+0410 -> ``A``, U+0131 -> ``i``);
3. combining marks are dropped (LATIN CAPITAL LETTER I WITH DOT ABOVE U+0130 -> ``I``).

ASCII is never changed (UTS #39's own skeleton maps ``m`` to ``rn`` and ``I`` to ``l``,
which the rules, written in ASCII, would no longer match), so case-sensitive rules (a key's
``AKIA`` prefix) still apply. :func:`fold_lower` adds case folding, for trigger words. Line
breaks are kept: a folded text has the same lines, so line numbers stay exact.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables


def fold(text: str) -> str:
    """``text`` with compatibility forms and look-alike letters as plain ASCII; same lines."""
    if text.isascii():
        return text
    folded = _fold(text)
    if folded.count("\n") == text.count("\n"):
        return folded
    # A compatibility form that holds a line break would move lines: fold line by line.
    return "\n".join(_fold(line).replace("\n", " ") for line in text.split("\n"))


def _fold(text: str) -> str:
    mapped = unicodedata.normalize("NFKC", text).translate(_table())
    if mapped.isascii():
        return mapped
    # Marks on letters (``İ``, ``é``) are dropped: the rules are written without them.
    return unicodedata.normalize("NFD", mapped).translate(_marks())


@lru_cache(maxsize=1)
def _marks() -> dict[int, None]:
    """Every combining mark of the Basic Multilingual Plane, to delete."""
    return {c: None for c in range(0x10000) if unicodedata.combining(chr(c))}


def fold_lower(text: str) -> str:
    """:func:`fold`, then Unicode case folding: the form trigger words are looked up in."""
    return fold(text).casefold() if not text.isascii() else text.lower()


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    """Non-ASCII character -> the ASCII letter or digit it is confusable with."""
    # The data lists, for each character, those it is confusable with; read both ways, and
    # through the ASCII characters confusable with each other (the Cyrillic capital I, U+0406,
    # is listed with ``l`` only, and ``l`` with ``I``: so U+0406 becomes ``I``).
    pairs: list[tuple[str, str]] = []
    for char, entries in confusables.confusables_data.items():
        for other in (e["c"] for e in entries if len(e["c"]) == 1):
            pairs += [(char, other), (other, char)]
    links: dict[str, list[str]] = {}
    for a, b in pairs:
        if len(a) == 1 and b.isascii() and b.isalnum():
            links.setdefault(a, []).append(b)
    candidates = {
        a: found + [c for b in found if b.isascii() for c in links.get(b, [])]
        for a, found in links.items()
        if not a.isascii()
    }
    table: dict[int, str] = {}
    for char, found in candidates.items():
        choice = _choose(char, list(dict.fromkeys(found)))
        if choice is not None:
            table[ord(char)] = choice
    return table


def _choose(char: str, candidates: list[str]) -> str | None:
    """The candidate of the same case as ``char`` (a letter before a digit), else the first."""
    if not candidates:
        return None
    if char.isupper():
        preferred = [c for c in candidates if c.isupper()]
    elif char.islower():
        preferred = [c for c in candidates if c.islower()]
    else:
        preferred = []
    letters = [c for c in preferred or candidates if c.isalpha()]
    return (letters or preferred or candidates)[0]
