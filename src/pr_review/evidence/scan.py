"""Fast content scanning: one combined regular expression per category over joined lines.

The lines of one side of a file's change are joined once; each category's rules are one
alternation with a named group per rule, run with ``finditer``; match offsets are mapped
back to line numbers with ``bisect``. This keeps pack building a small fraction of diff
parsing time even on very large diffs.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from pr_review.evidence.triggers import lines_holding, lines_with_any
from pr_review.lookalike import fold, fold_lower


@dataclass(frozen=True)
class Block:
    """Lines joined with ``\\n`` plus what is needed to map offsets back to line numbers."""

    text: str
    starts: tuple[int, ...]
    numbers: tuple[int, ...]

    def line_at(self, offset: int) -> int:
        """The line number (as given) of the line holding ``offset``."""
        return self.numbers[bisect_right(self.starts, offset) - 1]

    @property
    def empty(self) -> bool:
        """True when there are no lines."""
        return not self.numbers

    def folded(self) -> Block:
        """The same lines with look-alike letters folded (:func:`pr_review.lookalike.fold`)."""
        if self.text.isascii():
            return self
        ends = [*(start - 1 for start in self.starts[1:]), len(self.text)]
        lines = [self.text[start:end] for start, end in zip(self.starts, ends, strict=True)]
        return block([(n, fold(t)) for n, t in zip(self.numbers, lines, strict=True)])

    @cached_property
    def one_line_each(self) -> bool:
        """True when no line's text holds a ``\\n`` (diff lines never do; rule examples may)."""
        return self.text.count("\n") == len(self.starts) - 1


def block(lines: Sequence[tuple[int, str]]) -> Block:
    """Join ``(line number, text)`` pairs into a :class:`Block`."""
    starts: list[int] = []
    offset = 0
    for _, text in lines:
        starts.append(offset)
        offset += len(text) + 1
    return Block("\n".join(t for _, t in lines), tuple(starts), tuple(n for n, _ in lines))


@dataclass(frozen=True)
class Hit:
    """One rule match: which rule (by index in its category) and on which line."""

    rule: int
    line: int


def combine(patterns: Iterable[str]) -> re.Pattern[str]:
    """One alternation whose group ``r<i>`` is the ``i``-th pattern."""
    parts = tuple(_scoped(p) for p in patterns)
    combined = re.compile("|".join(f"(?P<r{i}>{p})" for i, p in enumerate(parts)), re.MULTILINE)
    _PARTS[combined] = tuple(re.compile(p, re.MULTILINE) for p in parts)
    return combined


_PARTS: dict[re.Pattern[str], tuple[re.Pattern[str], ...]] = {}
"""Each combined pattern's alternatives compiled alone (see :func:`_merged`)."""


def _scoped(pattern: str) -> str:
    """A leading global ``(?i)`` becomes a scoped ``(?i:...)`` so patterns can be combined."""
    if pattern.startswith("(?i)"):
        return f"(?i:{pattern[4:]})"
    return pattern


def hits(
    pattern: re.Pattern[str],
    where: Block,
    triggers: Sequence[str] = (),
    limit: int | None = None,
    *,
    found: Mapping[str, Sequence[int]] | None = None,
) -> list[Hit]:
    """Every match of a combined pattern in a block, as rule index and line number.

    With ``triggers`` (lower-case substrings every match contains), only the lines holding
    one are searched (every line when a line's text holds a ``\\n``). ``found`` is
    :func:`~pr_review.evidence.triggers.lines_holding` of the block's folded text for
    (at least) those triggers, when the caller already has it. ``limit`` stops after that
    many hits (callers need the first hits, not all of them).
    """
    if where.empty:
        return []
    if triggers and where.one_line_each:  # line indexes are line numbers' positions
        if found is None:
            found = lines_holding(fold_lower(where.text), frozenset(triggers))
        regions = _regions(where, lines_with_any(found, triggers))
    else:
        regions = [(0, len(where.text))]
    result: list[Hit] = []
    for start, end in regions:
        for rule, match in _merged(pattern, where.text, start, end):
            result.append(Hit(rule, where.line_at(match.start())))
            if limit is not None and len(result) >= limit:
                return result
    return result


def hits_in_span(
    pattern: re.Pattern[str], text: str, start: int, end: int
) -> Iterator[tuple[int, int]]:
    """Matches of a combined pattern in ``text[start:end]``: (rule index, match offset)."""
    for rule, match in _merged(pattern, text, start, end):
        yield rule, match.start()


def _merged(
    pattern: re.Pattern[str], text: str, start: int, end: int
) -> Iterator[tuple[int, re.Match[str]]]:
    """What ``pattern.finditer(text, start, end)`` yields, as (alternative index, match).

    At any position an alternation matches with its first alternative that matches there,
    so its next match is the earliest next match of any alternative searched alone, ties
    going to the lowest index. Alone, each keeps its own literal-prefix speed-ups, which the
    alternation loses. An alternative is searched again only once the scan has passed the
    match it found. An empty match (no rule makes one) hands over to ``finditer`` itself.
    """
    parts = _PARTS.get(pattern)
    if parts is None:
        yield from _plain(pattern, text, start, end)
        return
    pending = [p.search(text, start, end) for p in parts]
    pos = start
    while True:
        found = [(m.start(), i, m) for i, m in enumerate(pending) if m is not None]
        if not found:
            return
        _, best, match = min(found, key=lambda entry: entry[:2])
        if match.end() == match.start():
            yield from _plain(pattern, text, pos, end)
            return
        yield best, match
        pos = match.end()
        for index, other in enumerate(pending):
            if other is not None and other.start() < pos:
                pending[index] = parts[index].search(text, pos, end)


def _plain(
    pattern: re.Pattern[str], text: str, start: int, end: int
) -> Iterator[tuple[int, re.Match[str]]]:
    for match in pattern.finditer(text, start, end):
        if match.lastgroup is not None:
            yield int(match.lastgroup[1:]), match


def _regions(where: Block, lines: Sequence[int]) -> list[tuple[int, int]]:
    """Spans of the given lines (indexes, ascending), adjacent lines merged."""
    regions: list[tuple[int, int]] = []
    for line in lines:
        start = where.starts[line]
        end = where.starts[line + 1] - 1 if line + 1 < len(where.starts) else len(where.text)
        if regions and regions[-1][1] + 1 >= start:
            regions[-1] = (regions[-1][0], end)
        else:
            regions.append((start, end))
    return regions


def word_part(*words: str) -> str:
    """Regex matching any of ``words`` as a whole part of an identifier.

    ``ttl`` matches ``ttl``, ``DEFAULT_TTL``, ``ttlSeconds`` and ``cacheTtl`` but not
    ``settle``; words are given in lower case.
    """
    alternatives = []
    for word in words:
        cap = word[0].upper() + word[1:]
        alternatives.append(
            f"(?:(?<![A-Za-z])(?:{word}|{cap}|{word.upper()})|(?<=[a-z0-9])(?:{cap}|{word.upper()}))"
        )
    return f"(?:{'|'.join(alternatives)})(?![a-z])"
