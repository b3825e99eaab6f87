"""Budgeted content scan: file-level signals for a diff too large to analyse line by line.

Above ``oversize.full_analysis_max_lines`` changed lines (GitHub's own diff limit) a PR is
red by size and cannot be reviewed whole; what a reviewer still needs from the content is
*which files* carry security or migration signals, and where to look first. So this pass:

- runs only the :data:`BUDGETED` categories (secrets, access control, migrations: leaks and
  access changes cannot wait for a split, and their factors demand a security note or
  migration guidance); the other categories, crypto and SQL construction included, are left
  to the line-level review of the split parts;
- joins each side of a file once and finds every category's trigger words in one pass over
  the lower-cased text (:mod:`.triggers`, C speed, no per-line Python loop), and hands at
  most :data:`LINES_PER_TRIGGER` lines per trigger word, file and side to the rules;
- does not strip comments and skips check-then-act (both need line-level work).

It returns the same :class:`FileScan` values as the full scan, so risk factors (same names,
one per file) and hotspots come from the same code. Line numbers are exact: trigger words are
found by line index, mapped through the side's line numbers.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

from pr_review.evidence.content import MAX_HITS, FileScan
from pr_review.evidence.rules import CATEGORIES, Category
from pr_review.evidence.scan import Hit, combine, hits_in_span
from pr_review.evidence.triggers import lines_holding, lines_with_any
from pr_review.lookalike import fold, fold_lower
from pr_review.sources.diff import FileDiff

BUDGETED = frozenset({"secrets", "permission-authorization", "data-migration"})
"""Categories the budgeted scan keeps: each trigger word costs one pass over the text."""
LINES_PER_TRIGGER = 3
"""Lines per trigger word, file and side that the category's rules are run on."""
KEPT_HITS = min(MAX_HITS, 16)
"""Hits kept per file, category and side: enough for the factor and the first hotspots."""


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[Category, re.Pattern[str]], ...]:
    return tuple((c, combine(r.pattern for r in c.rules)) for c in CATEGORIES if c.name in BUDGETED)


class _Side:
    """One side of a file's change, with the lines holding each trigger word found once."""

    def __init__(self, pairs: Sequence[tuple[int, str]], words: frozenset[str]) -> None:
        # Look-alike letters folded first, as in the full scan (line numbers are kept).
        self.pairs = [(n, fold(t)) for n, t in pairs]
        lowered = fold_lower("\n".join(t for _, t in self.pairs))
        self.found = lines_holding(lowered, words, cap=LINES_PER_TRIGGER)

    def candidates(self, triggers: Sequence[str]) -> list[int]:
        """Indexes of the lines holding a trigger: the first few per trigger, in text order.

        A cap per trigger (not only per category) so a word on every line ("key") cannot
        crowd out a rare, precise one ("akia", "-----begin") further down the file.
        """
        return lines_with_any(self.found, triggers)


def _side_hits(side: _Side | None, category: Category, pattern: re.Pattern[str]) -> list[Hit]:
    if side is None:
        return []
    lines = side.candidates(category.triggers)
    if not lines:
        return []
    # The candidate lines joined: one search per rule instead of one per rule and line.
    excerpt = "\n".join(side.pairs[i][1] for i in lines)
    starts, offset = [], 0
    for i in lines:
        starts.append(offset)
        offset += len(side.pairs[i][1]) + 1
    found: list[Hit] = []
    for rule, at in hits_in_span(pattern, excerpt, 0, len(excerpt)):
        found.append(Hit(rule, side.pairs[lines[bisect_right(starts, at) - 1]][0]))
        if len(found) >= KEPT_HITS:
            break
    return found


def _run(full: bool) -> list[tuple[Category, re.Pattern[str]]]:
    """The categories run on a file: all budgeted ones, or without ``full`` raw-text ones."""
    return [(c, p) for c, p in _compiled() if full or c.policy.any_file]


@lru_cache(maxsize=4)
def _words(*, full: bool, removed: bool) -> frozenset[str]:
    """Trigger words of the categories run on a file's added (or removed) side."""
    return frozenset(
        t for c, _ in _run(full) if not removed or c.policy.removed is not None for t in c.triggers
    )


def scan_file_budgeted(f: FileDiff, *, full: bool) -> FileScan:
    """Budgeted scan of one file; without ``full`` only raw-text categories (secrets) run."""
    compiled = _run(full)
    if not compiled or not f.hunks:
        return FileScan(f.path)
    added = _Side([pair for h in f.hunks for pair in h.added], _words(full=full, removed=False))
    removed_words = _words(full=full, removed=True)
    removed = (
        _Side([pair for h in f.hunks for pair in h.removed], removed_words)
        if removed_words
        else None
    )
    result_added: dict[str, list[Hit]] = {}
    result_removed: dict[str, list[Hit]] = {}
    for category, pattern in compiled:
        found = _side_hits(added, category, pattern)
        if found:
            result_added[category.name] = found
        if category.policy.removed is not None:
            gone = _side_hits(removed, category, pattern)
            if gone:
                result_removed[category.name] = gone
    return FileScan(f.path, result_added, result_removed)


def scan_all_budgeted(files: Sequence[FileDiff], code_paths: frozenset[str]) -> dict[str, FileScan]:
    """:func:`~pr_review.evidence.content.scan_all`'s budgeted counterpart."""
    return {f.path: scan_file_budgeted(f, full=f.path in code_paths) for f in files}
