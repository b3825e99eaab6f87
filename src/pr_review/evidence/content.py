"""One pass over each file's changed lines: rule hits per category and check-then-act.

Comments are blanked before matching (a comment saying "TTL" changes nothing), except for
categories that scan raw text (secrets leak from comments too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pr_review.evidence.lexing import strip_comments
from pr_review.evidence.rules import CATEGORIES, Category
from pr_review.evidence.scan import Block, Hit, block, combine, hits
from pr_review.sources.diff import FileDiff

_READ = re.compile(
    r"\b(?P<recv>[A-Za-z_]\w*)\.(?:get|exists|hget|hexists|find_one|lookup|sismember|zscore|llen|scard)"
    r"\(\s*(?P<key>[\w.\[\]\"']+)"
)
_WRITE = re.compile(
    r"\b(?P<recv>[A-Za-z_]\w*)\.(?:set|setex|psetex|put|hset|incr\w*|decr\w*|insert\w*|save|sadd|zadd|lpush|rpush)"
    r"\(\s*(?P<key>[\w.\[\]\"']+)"
)
_NOT_SHARED = frozenset(
    {
        "os",
        "environ",
        "kwargs",
        "args",
        "request",
        "headers",
        "params",
        "config",
        "settings",
        "self",
        "json",
        "re",
        "data",
        "options",
        "opts",
        "ctx",
        "context",
    }
)
_SQL_READ = re.compile(r"\bSELECT\b[^\n]*\bFROM\b")
_SQL_WRITE = re.compile(r"\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b")
_SQL_ATOMIC = re.compile(
    r"FOR UPDATE|ON CONFLICT|ON DUPLICATE KEY|INSERT OR IGNORE|MERGE INTO|\bNX\b|nx=True|setnx"
)
WINDOW = 40
MAX_HITS = 64
"""Hits kept per category and side of a file: enough for the first hotspots and factors."""


@dataclass(frozen=True)
class FileScan:
    """Rule hits of one file: category -> hits, on added (new numbers) and removed (old numbers)."""

    path: str
    added: dict[str, list[Hit]] = field(default_factory=dict)
    removed: dict[str, list[Hit]] = field(default_factory=dict)
    check_then_act: tuple[int, ...] = ()
    """New-side lines of writes that follow a non-atomic read of the same key."""


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[Category, re.Pattern[str]], ...]:
    return tuple((c, combine(r.pattern for r in c.rules)) for c in CATEGORIES)


def scan_file(f: FileDiff, *, full: bool) -> FileScan:
    """Scan one file's added and removed lines; without ``full`` only raw-text categories run."""
    added = [pair for h in f.hunks for pair in h.added]
    removed = [pair for h in f.hunks for pair in h.removed]
    raw_added, raw_removed = block(added), block(removed)
    code_added = _code_block(raw_added, f.path)
    code_removed = _code_block(raw_removed, f.path)
    lowered = {id(b): b.text.lower() for b in (raw_added, raw_removed, code_added, code_removed)}
    result_added: dict[str, list[Hit]] = {}
    result_removed: dict[str, list[Hit]] = {}
    for category, pattern in _compiled():
        if not full and not category.policy.any_file:
            continue
        raw = category.policy.any_file
        side_added = raw_added if raw else code_added
        side_removed = raw_removed if raw else code_removed
        found_added = hits(
            pattern, side_added, category.triggers, lowered[id(side_added)], MAX_HITS
        )
        found_removed = hits(
            pattern, side_removed, category.triggers, lowered[id(side_removed)], MAX_HITS
        )
        if found_added:
            result_added[category.name] = found_added
        if found_removed:
            result_removed[category.name] = found_removed
    cta = _check_then_act(code_added) if full else ()
    return FileScan(f.path, result_added, result_removed, cta)


def _code_block(raw: Block, path: str) -> Block:
    if raw.empty:
        return raw
    # Fragments of Python do not tokenize reliably: lex them as any hash-comment language.
    stripped = strip_comments(raw.text, "fragment.rb" if path.endswith((".py", ".pyi")) else path)
    return Block(stripped, raw.starts, raw.numbers)


def _check_then_act(code: Block) -> tuple[int, ...]:
    """Writes preceded (within a window) by a read of the same key on the same shared store."""
    if code.empty:
        return ()
    reads: dict[tuple[str, str], int] = {}
    flagged: list[int] = []
    events: list[tuple[int, str, re.Match[str]]] = [
        (m.start(), "r", m) for m in _READ.finditer(code.text)
    ]
    events += [(m.start(), "w", m) for m in _WRITE.finditer(code.text)]
    for offset, kind, match in sorted(events, key=lambda e: e[0]):
        recv, key = match.group("recv"), match.group("key")
        if recv.lower() in _NOT_SHARED:
            continue
        line = code.line_at(offset)
        if kind == "r":
            reads[(recv, key)] = line
        elif (recv, key) in reads and 0 <= line - reads[(recv, key)] <= WINDOW:
            window = code.text[_offset_of(code, reads[(recv, key)]) : match.end()]
            if not _SQL_ATOMIC.search(window):
                flagged.append(line)
    flagged += _sql_check_then_act(code)
    return tuple(sorted(set(flagged)))


def _sql_check_then_act(code: Block) -> list[int]:
    flagged: list[int] = []
    reads = [code.line_at(m.start()) for m in _SQL_READ.finditer(code.text)]
    if not reads:
        return flagged
    for match in _SQL_WRITE.finditer(code.text):
        line = code.line_at(match.start())
        earlier = [r for r in reads if 0 < line - r <= WINDOW]
        if earlier:
            window = code.text[_offset_of(code, earlier[-1]) : match.end()]
            if not _SQL_ATOMIC.search(window):
                flagged.append(line)
    return flagged


def _offset_of(code: Block, line: int) -> int:
    return code.starts[code.numbers.index(line)]


def scan_all(files: Sequence[FileDiff], code_paths: frozenset[str]) -> dict[str, FileScan]:
    """Scan every file; code files get every category, others only raw-text ones."""
    return {f.path: scan_file(f, full=f.path in code_paths) for f in files}
