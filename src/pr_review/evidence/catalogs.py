"""GNU gettext catalogs (``.po``, ``.pot``) read as catalogs: what a program shows, by message.

A translation PR often only rewrites a catalog's reference comments (``#: views.py:12``),
reorders its entries or rewraps their strings (``makemessages`` and ``msgmerge`` do all three):
the messages a program shows are the same. Two versions of a catalog are the same when they
hold the same entries (context, id, plural id, translations, flags such as ``fuzzy``, obsolete
or not) and the same header fields gettext reads at run time (``Content-Type``, for the
charset, ``Plural-Forms`` and ``Language``); the order of entries, comments, wrapping and the
other header fields (revision dates, translators, generator) change nothing. A catalog that
does not parse is never the same as anything. polib parses (this module is its only importer).

Examples (run by the test suite, ``CATALOG_EXAMPLES``): (base, head, the same?).
"""

from __future__ import annotations

import os

import polib

CATALOG_EXTENSIONS = (".po", ".pot")
RUNTIME_HEADERS = ("Content-Type", "Plural-Forms", "Language")
"""Header fields gettext reads when a program runs; the rest describe the file's history."""

Catalog = tuple[frozenset[tuple[object, ...]], tuple[str | None, ...]]


def read_catalog(text: str) -> Catalog | None:
    """A catalog's entries and run-time header fields, or None when it does not parse."""
    if "\n" not in text or os.path.lexists(text):
        return None  # polib reads a file when given a path: only ever hand it content
    try:
        parsed = polib.pofile(text, encoding="utf-8")
    except (OSError, ValueError, UnicodeError):
        return None
    entries = frozenset(
        (
            entry.msgctxt,
            entry.msgid,
            entry.msgid_plural,
            entry.msgstr,
            tuple(sorted(entry.msgstr_plural.items())),
            tuple(sorted(entry.flags)),
            entry.obsolete,
        )
        for entry in parsed
    )
    return entries, tuple(parsed.metadata.get(key) for key in RUNTIME_HEADERS)


def same_catalog(old: str, new: str) -> bool:
    """Whether two versions of a catalog hold the same messages (see the module)."""
    before = read_catalog(old)
    return before is not None and before == read_catalog(new)


_HEADER = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
)
CATALOG_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    # reference comments moved, entries reordered, a string rewrapped (simplejwt #935)
    (
        _HEADER + '#: tokens.py:12\nmsgid "Token is invalid"\nmsgstr "Jeton invalide"\n\n'
        '#: backends.py:40\nmsgid "Token has no id"\nmsgstr "Le jeton n\'a pas d\'id"\n',
        _HEADER + '#: backends.py:44\nmsgid "Token has no id"\nmsgstr ""\n'
        '"Le jeton n\'a pas "\n"d\'id"\n\n#: tokens.py:17\nmsgid "Token is invalid"\n'
        'msgstr "Jeton invalide"\n',
        True,
    ),
    # a revision date and a translator's name in the header
    (
        _HEADER + '"PO-Revision-Date: 2024-01-01\\n"\n\nmsgid "Yes"\nmsgstr "Oui"\n',
        _HEADER + '"PO-Revision-Date: 2025-02-02\\n"\n"Last-Translator: A\\n"\n\n'
        'msgid "Yes"\nmsgstr "Oui"\n',
        True,
    ),
    # a translation changed, added, or marked fuzzy (msgfmt leaves fuzzy ones out)
    (_HEADER + '\nmsgid "Yes"\nmsgstr "Oui"\n', _HEADER + '\nmsgid "Yes"\nmsgstr "Si"\n', False),
    (_HEADER + '\nmsgid "Yes"\nmsgstr ""\n', _HEADER + '\nmsgid "Yes"\nmsgstr "Oui"\n', False),
    (
        _HEADER + '\nmsgid "Yes"\nmsgstr "Oui"\n',
        _HEADER + '\n#, fuzzy\nmsgid "Yes"\nmsgstr "Oui"\n',
        False,
    ),
    # the plural rule gettext applies
    (
        _HEADER + '\nmsgid "Yes"\nmsgstr "Oui"\n',
        _HEADER.replace("(n != 1)", "(n > 1)") + '\nmsgid "Yes"\nmsgstr "Oui"\n',
        False,
    ),
    # not a catalog
    ("<html>\n</html>\n", "<html>\n</html>\n", False),
)
"""Two versions of a catalog and whether they hold the same messages."""
