"""One parse per source while a pack is built: the structural readers share their trees.

A dozen readers (decisions, guards, bounds, input flows, regexes, markers...) each read the
PR's changed files on both sides; without sharing, every one of them parsed every source again
(Python's ``ast`` and tree-sitter alike: on aiohttp's PRs 426 Python parses for about 60
distinct sources), and the markup reader scanned with the sink rules what the sink factors had
scanned. Inside :func:`shared_parses` a source parsed (or scanned) once is handed to every reader
that asks for it with the same parser; outside it nothing is kept. Trees are shared, so readers
must not change them (the one reader that edits a tree, :mod:`pr_review.evidence.pyast`'s
docstring-blind keys, parses its own copy). At most ``budget_chars`` characters of source are
kept (a PR of many large files parses the rest again rather than holding every tree), and the
scope is the current context: concurrent reviews in threads each have their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar, cast

T = TypeVar("T")

BUDGET_CHARS = 2_000_000
"""Source characters whose trees are kept per pack. A Python tree takes about 37 bytes per
source character (measured with tracemalloc on 482 KB of this package), so at most about 75 MB;
on 100 real PRs of aiohttp, hono, werkzeug and undici a pack kept 28 K characters (median),
320 K at most."""


@dataclass
class _Store:
    budget: int
    kept: dict[tuple[str, str], object] = field(default_factory=dict)
    chars: int = 0
    hits: int = 0
    misses: int = 0


_CURRENT: ContextVar[_Store | None] = ContextVar("shared_parses", default=None)


@contextmanager
def shared_parses(budget_chars: int = BUDGET_CHARS) -> Iterator[None]:
    """Share parses among the readers called inside this block."""
    token = _CURRENT.set(_Store(budget_chars))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def parsed(parser: str, source: str, parse: Callable[[], T]) -> T:
    """``parse()`` of ``source`` by ``parser`` (a name saying which parser and settings), once
    per :func:`shared_parses` block; called directly outside one."""
    store = _CURRENT.get()
    if store is None:
        return parse()
    key = (parser, source)
    if key in store.kept:
        store.hits += 1
        return cast("T", store.kept[key])
    store.misses += 1
    tree = parse()
    if store.chars + len(source) <= store.budget:
        store.kept[key] = tree
        store.chars += len(source)
    return tree


def counts() -> tuple[int, int] | None:
    """(hits, misses) of the current block, or None outside one (for tests and benches)."""
    store = _CURRENT.get()
    return None if store is None else (store.hits, store.misses)
