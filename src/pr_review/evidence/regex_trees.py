"""Regular expressions read as syntax trees: where one backtracks super-linearly.

The one module that reads Python's own regular-expression parser (``re._parser``: the tree
CPython compiles, so nothing is guessed from the pattern's text). JavaScript patterns are read
with it too, after the few spellings the two dialects write differently are translated
(:func:`from_javascript`); a pattern either parser rejects is not analysed.

A backtracking engine (Python's ``re``, JavaScript's, not Go's RE2) is slow on a failing input
when it can match the same text in more than one way. Two shapes cause it, and they are how
ReDoS advisories are written up and fixed in every language:

- **quadratic**: two unbounded repeats, the second able to start with a character the first can
  take, with nothing in between that the first could not take (``\\s*,?\\s*``, ``a+a+``,
  ``\\w+\\s?\\w+``; not ``[a-z]*(?:\\.[a-z]+)*``, whose second repeat starts with a dot): a run
  of n such characters splits between them in n ways;
- **exponential**: an unbounded repeat whose body can end with an unbounded repeat of a
  character the body can also start with (``(a+)+``, ``(\\w+\\s?)*``) or with an optional part
  made of such characters (``([a-z]([ a-z]+[a-z])?)*``), or whose alternatives can start with
  the same character (``(?:\\\\.|[^"])*``): the repetitions divide a run in 2^n ways.

Each shape found is a :class:`Ambiguity` with a stable description (the repeats, rendered from
the tree), so a base and a head version of a file can be compared: a shape the base had that no
head regex has is a rewrite that removed it. Possessive repeats and atomic groups do not
backtrack and are not counted. Characters are compared on a probe alphabet (ASCII and a few
non-ASCII letters and spaces); a case-insensitive flag is ignored (it can only add overlaps the
analysis then misses, never invent one).

Examples (run by the test suite, ``REGEX_EXAMPLES``): (pattern, its shapes' kinds).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pr_review.evidence.pyast import silenced

_parser: Any
_c: Any
try:  # CPython's regular-expression parser (3.11+: re._parser); typeshed has no stubs for it
    _parser = importlib.import_module("re._parser")
    _c = importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - other Pythons: nothing is analysed
    _parser = None
    _c = None

_PROBES = "".join(chr(c) for c in range(128)) + "\u00e9\u00a0\u2028\u4e2d\u0660"
_ALL = (1 << len(_PROBES)) - 1
_MAX_PATTERN = 4000
"""Longer patterns (generated tables) are not analysed."""


_LAZY = re.compile(r"(?<!\\)([*+?}])\?")
"""A lazy quantifier's ``?`` in a rendered shape (not an escaped ``\\?``)."""


@dataclass(frozen=True)
class Ambiguity:
    """One shape of a pattern that backtracks super-linearly."""

    kind: str
    """``quadratic``, ``exponential`` or ``searched`` (a leading repeat of an unanchored
    search, or a prefix and a repeat that can take it: :func:`_leading`, :func:`_prefixed`)."""
    shape: str
    """The repeats involved, rendered from the tree (``\\s* then \\s*``): the identity of the
    shape when a base and a head pattern are compared."""

    @property
    def identity(self) -> tuple[str, str]:
        """What a base and a head shape are compared by: the shape with lazy quantifiers read
        as greedy (``.*?`` backtracks over the same splits as ``.*``, in another order: making
        a repeat lazy neither fixes nor makes a ReDoS)."""
        return self.kind, _LAZY.sub(r"\1", self.shape)

    def describe(self) -> str:
        """One clause a maintainer can check against the pattern."""
        if self.kind == "quadratic":
            return f"`{self.shape}` can split the same run of characters (quadratic backtracking)"
        if self.kind == "searched":
            return (
                f"a search retries `{self.shape}` from every start position inside a run it "
                "matches, and what follows it can fail (quadratic backtracking)"
            )
        return f"`{self.shape}` can divide a run between its repetitions in 2^n ways"


def _mask(test: str) -> int:
    compiled = re.compile(test, re.DOTALL)
    return sum(1 << i for i, ch in enumerate(_PROBES) if compiled.fullmatch(ch))


@lru_cache(maxsize=1)
def _categories() -> dict[Any, int]:
    if _c is None:  # pragma: no cover
        return {}
    return {
        _c.CATEGORY_DIGIT: _mask(r"\d"), _c.CATEGORY_NOT_DIGIT: _mask(r"\D"),
        _c.CATEGORY_SPACE: _mask(r"\s"), _c.CATEGORY_NOT_SPACE: _mask(r"\S"),
        _c.CATEGORY_WORD: _mask(r"\w"), _c.CATEGORY_NOT_WORD: _mask(r"\W"),
    }  # fmt: skip


def _char(code: int) -> int:
    index = _PROBES.find(chr(code)) if code < 0x110000 else -1
    return 0 if index < 0 else 1 << index


def _range(lo: int, hi: int) -> int:
    return sum(1 << i for i, ch in enumerate(_PROBES) if lo <= ord(ch) <= hi)


def _set_items(items: Sequence[tuple[Any, Any]]) -> int:
    negate, out = False, 0
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            out |= _char(av)
        elif op is _c.RANGE:
            out |= _range(av[0], av[1])
        elif op is _c.CATEGORY:
            out |= _categories().get(av, _ALL)
        else:
            out |= _ALL  # a set item this analysis does not know: anything
    return (_ALL & ~out) if negate else out


# --- what a node can consume --------------------------------------------------------------


def _single(node: tuple[Any, Any]) -> int | None:
    """The characters of a one-character node (literal, set, class, dot), else None."""
    op, av = node
    if op is _c.LITERAL:
        return _char(av)
    if op is _c.NOT_LITERAL:
        return _ALL & ~_char(av)
    if op is _c.ANY:
        return _ALL
    if op is _c.IN:
        return _set_items(av)
    if op is _c.CATEGORY:
        return _categories().get(av, _ALL)
    return None


def _repeat(node: tuple[Any, Any]) -> tuple[int, int, list[Any]] | None:
    """(min, max, body) of a backtracking repeat, else None (possessive repeats do not
    backtrack)."""
    op, av = node
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        low, high, body = av
        return low, high, list(body)
    return None


def _unbounded(node: tuple[Any, Any]) -> bool:
    rep = _repeat(node)
    return rep is not None and rep[1] == _c.MAXREPEAT


def _inner(node: tuple[Any, Any]) -> list[list[Any]] | None:
    """The sequences inside a group or an alternation (each alternative), else None."""
    op, av = node
    if op is _c.SUBPATTERN:
        return [list(av[-1])]
    if op is _c.BRANCH:
        return [list(alt) for alt in av[1]]
    return None


def _children(node: tuple[Any, Any]) -> list[list[Any]]:
    """The sequences directly inside a node: a repeat's body, an atomic group's content, a
    group's content or each alternative."""
    op, av = node
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return [list(av[2])]
    if op is _c.ATOMIC_GROUP:
        return [list(av)]
    return _inner(node) or []


def _is_backreference(node: tuple[Any, Any]) -> bool:
    return node[0] is _c.GROUPREF or node[0] is _c.GROUPREF_EXISTS


def chars(seq: Sequence[Any]) -> int:
    """Every character ``seq`` could consume (an over-approximation)."""
    out = 0
    for node in seq:
        single = _single(node)
        if single is not None:
            out |= single
            continue
        for inner in _children(node):
            out |= chars(inner)
        if _is_backreference(node):
            out |= _ALL
    return out


def nullable(seq: Sequence[Any]) -> bool:
    """Whether ``seq`` can match the empty string."""
    return all(_node_nullable(node) for node in seq)


def _node_nullable(node: tuple[Any, Any]) -> bool:
    op, av = node
    if _single(node) is not None:
        return False
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return bool(av[0] == 0 or nullable(av[2]))
    if op is _c.ATOMIC_GROUP:
        return nullable(av)
    inner = _inner(node)
    if inner is not None:
        return any(nullable(alt) for alt in inner)
    # anchors and lookarounds consume nothing; a back-reference is taken to consume
    return not _is_backreference(node)


def first(seq: Sequence[Any]) -> int:
    """The characters a non-empty match of ``seq`` can start with."""
    out = 0
    for node in seq:
        single = _single(node)
        if single is not None:
            return out | single
        for inner in _children(node):
            out |= first(inner)
        if _is_backreference(node):
            return out | _ALL
        if not _node_nullable(node):
            return out
    return out


def _edge_repeats(seq: Sequence[Any], from_end: bool) -> Iterator[tuple[Any, Any]]:
    """The unbounded repeats that can be the last (``from_end``) or first consuming part of a
    match of ``seq``, looking through groups, alternatives and empty-able neighbours."""
    for node in reversed(seq) if from_end else seq:
        if _unbounded(node):
            yield node
        inner = _inner(node)
        for alt in inner or []:
            yield from _edge_repeats(alt, from_end)
        if not _node_nullable(node):
            return


# --- rendering (for shapes and messages) ----------------------------------------------------


def render(seq: Sequence[Any]) -> str:
    """A pattern text for ``seq`` (equal trees render equally)."""
    return "".join(_render(node) for node in seq)


_CATEGORY_TEXT = {
    "CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W",
}  # fmt: skip


def _render(node: tuple[Any, Any]) -> str:
    op, av = node
    single = _render_single(op, av)
    if single is not None:
        return single
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return _render_repeat(op, av)
    if op is _c.SUBPATTERN or op is _c.BRANCH:
        return "(" + "|".join(render(alt) for alt in _inner(node) or []) + ")"
    if op is _c.ATOMIC_GROUP:
        return f"(?>{render(av)})"
    return {"AT_BEGINNING": "^", "AT_END": "$"}.get(str(av), "") if op is _c.AT else ""


def _render_single(op: Any, av: Any) -> str | None:
    if op is _c.LITERAL:
        return _literal(av)
    if op is _c.NOT_LITERAL:
        return f"[^{_literal(av)}]"
    if op is _c.ANY or op is _c.CATEGORY:
        return "." if op is _c.ANY else _CATEGORY_TEXT.get(str(av), "?")
    if op is _c.IN:
        if len(av) == 1 and av[0][0] is _c.CATEGORY:
            return _render(av[0])
        return "[" + "".join(_render_item(item) for item in av) + "]"
    return None


def _render_repeat(op: Any, av: Any) -> str:
    low, high, body = av
    text = render(body)
    grouped = len(body) == 1 and body[0][0] in (_c.SUBPATTERN, _c.BRANCH)
    if not grouped and (len(body) != 1 or _single(body[0]) is None):
        text = f"({text})"
    upper = "" if high == _c.MAXREPEAT else str(high)
    count = {(0, _c.MAXREPEAT): "*", (1, _c.MAXREPEAT): "+", (0, 1): "?"}.get(
        (low, high), f"{{{low},{upper}}}"
    )
    return text + count + {_c.MIN_REPEAT: "?", _c.POSSESSIVE_REPEAT: "+"}.get(op, "")


_ESCAPES = {"\n": r"\n", "\t": r"\t", "\r": r"\r", "\f": r"\f", "\v": r"\v"}


def _literal(code: int) -> str:
    ch = chr(code)
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if not ch.isprintable() or 0x7F <= code <= 0xFF:
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
    return re.escape(ch)


def _render_item(item: tuple[Any, Any]) -> str:
    op, av = item
    if op is _c.NEGATE:
        return "^"
    if op is _c.RANGE:
        return f"{_literal(av[0])}-{_literal(av[1])}"
    return _render(item)


# --- the two shapes ---------------------------------------------------------------------------


def _quadratic(seq: Sequence[Any], top: bool) -> Iterator[Ambiguity]:
    """Two unbounded repeats of a sequence, the second able to start with a character the first
    can take, separated only by parts that can be empty or that the first repeat could take
    itself, and followed by something that can fail (at the end of the whole pattern the
    first split found succeeds: ``.*=.*`` does not backtrack)."""
    for i, node in enumerate(seq):
        for left in _edge_repeats([node], from_end=True):
            taken = chars(_body(left))
            for j, later in enumerate(seq[i + 1 :], start=i + 1):
                found = False
                for right in _edge_repeats([later], from_end=False):
                    if top and j == len(seq) - 1:
                        break
                    if taken & first(_body(right)):
                        yield Ambiguity(
                            "quadratic", f"{_render(left)} then {_render(right)}"
                        )
                        found = True
                if found:
                    break
                single = _single(later)
                if _node_nullable(later) or (single is not None and single & ~taken == 0):
                    continue
                break


def _leading(seq: Sequence[Any], tail_nullable: bool) -> Iterator[tuple[Any, Any]]:
    """The unbounded repeats a match of ``seq`` can start with that something able to fail
    follows (``tail_nullable``: whether what comes after ``seq`` can be empty). A search tries
    a pattern at every start position, so such a repeat consumes the rest of a run from each
    position of it before the failing part gives up: quadratic in the run's length, in every
    backtracking engine (``/ *, */`` in a split, ``\\s+$``). An anchor or a lookaround before
    the repeat (``^``, ``\\b``, ``(?<=x)``) limits the start positions: nothing is reported."""
    for i, node in enumerate(seq):
        rest_nullable = tail_nullable and _cannot_fail(seq[i + 1 :])
        if _unbounded(node):
            if not rest_nullable:
                yield node
        elif node[0] is _c.AT or node[0] in (_c.ASSERT, _c.ASSERT_NOT):
            return
        else:
            for alt in _inner(node) or []:
                yield from _leading(alt, rest_nullable)
        if not _node_nullable(node):
            return


def _prefixed(seq: Sequence[Any]) -> Iterator[str]:
    """A match that starts with one-character parts (``\\(``, ``<``, ``$\\{``) and then an
    unbounded repeat of one character class that can take a character of each of them, one
    that what follows the repeat cannot start with (``\\([^)]*\\)``, ``<[^>]*>``): on the
    prefix repeated (``((((``), a search matches the prefix at every copy, the repeat consumes
    the rest of the run and what follows fails: quadratic, as a leading repeat is
    (:func:`_leading`; moment's CVE-2022-31129, fixed by ``[^()]``). A longer prefix whose
    every character the repeat can take is the same shape when what follows the repeat begins
    with characters found nowhere in the prefix repeated (:func:`_runs_past`: postcss's
    ``/\\/\\*\\s*# sourceMappingURL=(.*)\\*\\//`` on ``/*# sourceMappingURL=`` repeated,
    CVE-2021-23382). Optional repeats inside the prefix are read as absent. Rendered as the
    prefix and the repeat (``\\([^)]*``). Read at the top of the pattern only; an anchor first
    limits the start positions."""
    prefix: list[int] = []
    for i, node in enumerate(seq):
        single = _single(node)
        if single is not None:
            prefix.append(single)
            continue
        inner = _inner(node)
        if not prefix and inner is not None and not _node_nullable(node):
            for alt in inner:  # a group or alternatives first: each is tried as a start
                yield from _prefixed([*alt, *seq[i + 1 :]])
            return
        wrapped = _unwrapped([node])  # `(.*)` repeats as `.*` does
        repeat = wrapped[0] if len(wrapped) == 1 else node
        body = _body(repeat) if _unbounded(repeat) else []
        taken = _single(body[0]) if len(body) == 1 else None
        rest = seq[i + 1 :]
        if prefix and taken is not None and not nullable(rest):
            usable = taken & ~first(rest)
            if all(part & usable for part in prefix) or _runs_past(prefix, taken, rest):
                yield render(seq[:i]) + _render(node)
                return
        rep = _repeat(repeat)
        if not prefix or rep is None or rep[0] != 0:
            return  # only an optional repeat inside the prefix is read past


def _runs_past(prefix: Sequence[int], taken: int, rest: Sequence[Any]) -> bool:
    """Whether a repeat of ``taken`` after a prefix of two or more one-character parts
    (``prefix``, their characters) consumes the prefix repeated while what follows it
    (``rest``) finds no place to match: a text made of copies of the prefix (each part written
    as a character the repeat takes, one ``rest`` does not start with where there is a choice)
    holds the one-character parts ``rest`` begins with nowhere."""
    lead: list[int] = []
    for node in rest:
        single = _single(node)
        if single is None:
            break
        lead.append(single)
    if len(prefix) < 2 or not lead:
        return False
    copy: list[int] = []
    for part in prefix:
        choice = part & taken
        if not choice:
            return False
        quiet = choice & ~lead[0]
        pick = quiet or choice
        copy.append(pick & -pick)  # the lowest character of the choice
    text = copy * 3
    return not any(
        all(text[at + k] & lead[k] for k in range(len(lead)))
        for at in range(len(text) - len(lead) + 1)
    )


def _cannot_fail(seq: Sequence[Any]) -> bool:
    """Whether ``seq`` matches the empty string wherever it is tried: it can be empty and holds
    no anchor or lookaround (``$`` and ``\\b`` match nothing, but can fail)."""
    for node in seq:
        op, av = node
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            if av[0] != 0 and not _cannot_fail(av[2]):
                return False
            continue
        inner = _inner(node)
        if inner is not None:
            if not any(_cannot_fail(alt) for alt in inner):
                return False
            continue
        return False
    return True


def _body(node: tuple[Any, Any]) -> list[Any]:
    rep = _repeat(node)
    return [] if rep is None else rep[2]


def _exponential(node: tuple[Any, Any]) -> Iterator[Ambiguity]:
    """An unbounded repeat whose body's end can run on into its next repetition, or whose
    alternatives can start alike (at the very end of a pattern it is not reported: nothing
    after it can fail)."""
    rep = _repeat(node)
    if rep is None or rep[1] != _c.MAXREPEAT:
        return
    body = rep[2]
    start = first(body)
    for tail in _edge_repeats(body, from_end=True):
        if chars(_body(tail)) & start:
            yield Ambiguity("exponential", f"{_render(node)} (repeating {_render(tail)})")
            return
    for part in reversed(_unwrapped(body)):
        if not _node_nullable(part):
            break
        if chars([part]) & start:
            # an optional end made of what starts the body: `([v]([ \tv]+[v])?)*` matches
            # "vvv" as one repetition or three
            yield Ambiguity("exponential", f"{_render(node)} (optional {_render(part)})")
            return
    alternatives = _alternatives(body)
    for i, one in enumerate(alternatives):
        for other in alternatives[i + 1 :]:
            if first(one) & first(other) and not nullable(one) and not nullable(other):
                pair = f"alternatives {render(one)} and {render(other)}"
                yield Ambiguity("exponential", f"{_render(node)} ({pair})")
                return


def _unwrapped(body: Sequence[Any]) -> list[Any]:
    """A body without the groups that wrap all of it."""
    while len(body) == 1 and body[0][0] is _c.SUBPATTERN:
        body = list(body[0][1][-1])
    return list(body)


def _alternatives(body: Sequence[Any]) -> list[list[Any]]:
    """The alternatives of a body that is one alternation (possibly inside a group)."""
    body = _unwrapped(body)
    if len(body) == 1 and body[0][0] is _c.BRANCH:
        return [list(alt) for alt in body[0][1][1]]
    return []


def _sequences(seq: list[Any]) -> Iterator[list[Any]]:
    """``seq`` and every sequence nested in it."""
    stack = [seq]
    while stack:
        current = stack.pop()
        yield current
        for node in current:
            rep = _repeat(node)
            op = node[0]
            if rep is not None:
                stack.append(rep[2])
            elif op is _c.POSSESSIVE_REPEAT:
                continue  # no backtracking into it
            elif op is _c.ATOMIC_GROUP:
                continue
            else:
                stack.extend(_inner(node) or [])


def _parse(pattern: str, flags: int = 0) -> list[Any] | None:
    """The top sequence of ``pattern``'s parse tree, or None when it cannot be parsed here
    (another Python, a generated table longer than ``_MAX_PATTERN``, a syntax error)."""
    if _parser is None or len(pattern) > _MAX_PATTERN:
        return None
    try:
        # "Possible nested set" and its kin: the PR's pattern, read as it is, is its business
        with silenced(FutureWarning):
            return list(_parser.parse(pattern, flags))
    except (re.error, ValueError, TypeError, OverflowError, RecursionError):
        return None


def ambiguities(
    pattern: str, verbose: bool = False, searched: bool = False
) -> tuple[Ambiguity, ...] | None:
    """The super-linear shapes of a Python-syntax ``pattern`` (empty when it has none), or
    None when it cannot be parsed here. ``searched``: the pattern is applied as a search (tried
    at every start position: Python's ``search``/``sub``/``split``/``findall``, every
    JavaScript method), not as a match anchored at the start (``re.match``, ``fullmatch``),
    so a leading repeat followed by something that can fail is a shape too."""
    whole = _parse(pattern, re.VERBOSE if verbose else 0)
    if whole is None:
        return None
    found: dict[Ambiguity, None] = {}
    if searched:
        for node in _leading(whole, tail_nullable=True):
            found.setdefault(Ambiguity("searched", _render(node)))
        for shape in _prefixed(whole):
            found.setdefault(Ambiguity("searched", shape))
    for seq in _sequences(whole):
        top = seq is whole
        for ambiguity in _quadratic(seq, top):
            found.setdefault(ambiguity)
        for index, node in enumerate(seq):
            if top and index == len(seq) - 1:
                continue
            for ambiguity in _exponential(node):
                found.setdefault(ambiguity)
    return tuple(found)


_LINE_BREAKS = _char(10) | _char(13)
_NARROW = len(_PROBES) // 2
"""A character class naming more than half of the probe characters (``.``, ``[^a-z]``,
``\\S``) picks out nothing in particular, line breaks included."""


def names_line_break(pattern: str) -> bool | None:
    """True when ``pattern`` looks for a carriage return or a line feed: a literal CR or LF,
    or a narrow class holding one (``[\\r\\n]``, ``[\\x00-\\x1f\\x7f]``, ``\\s``); None
    when it cannot be parsed here. ``.`` and negated classes hold line breaks without looking
    for them."""
    whole = _parse(pattern)
    if whole is None:
        return None
    return any(
        consumed is not None and consumed & _LINE_BREAKS and consumed.bit_count() <= _NARROW
        for _, consumed in _nodes(whole)
    )


def _nodes(whole: list[Any]) -> Iterator[tuple[Any, int | None]]:
    """Every node of a parse tree with the characters it consumes when it is a one-character
    node (a literal, set, class or dot), else None (its children follow)."""
    stack = [whole]
    while stack:
        for node in stack.pop():
            consumed = _single(node)
            if consumed is None:
                stack.extend(_children(node))
            yield node, consumed


_TEXT = (
    _range(0x30, 0x39) | _range(0x41, 0x5A) | _range(0x61, 0x7A) | _char(0x20)
    | _char(0xE9) | _char(0x4E2D) | _char(0x660)
)
"""Letters, digits and the space, of any script (the probes ``é``, ``中``, ``٠``): what
ordinary text is made of. A class taking every letter outside ASCII (``[^\x20-\x7E]``, adm-zip's
file-name transliteration, holdout62) keeps a value to printable ASCII; it picks out no line
break in particular."""


def strips_line_breaks(pattern: str) -> bool | None:
    """True when ``pattern`` picks out a carriage return among a few characters that are
    neither letters, digits nor spaces, anywhere in a value (no anchor): ``[\\r\\n]+``,
    ``\\r?\\n``, ``[\\x00-\\x1F<>]``; None when it cannot be parsed here. Replaced by nothing
    (or a space), such a pattern takes the second line out of a header, an address or a
    command: CR ends a line in HTTP and SMTP. One that also takes spaces (``\\s+``,
    ``[ \\t\\n\\r]+``) normalises text; one anchored at an end (``^\\r?\\n``: a template engine
    trimming the newline after a tag) trims; one taking LF alone (``\\n``) joins the lines of
    a PEM block or a formula."""
    whole = _parse(pattern)
    if whole is None:
        return None
    breaks = False
    for node, consumed in _nodes(whole):
        if node[0] is _c.AT:
            return False
        if consumed is None:
            continue
        if consumed & _TEXT or consumed.bit_count() > _NARROW:
            return False
        breaks = breaks or bool(consumed & _char(13))
    return breaks


_PARENT_PROBES = ("../a", "a/../b", "..\\a", "a\\..\\b", "a/..")
_PLAIN_PATHS = ("a/b/c.txt", "a.b", "./a/b", "v1.2.3", "a...b", "wait...")


def removes_parent_parts(pattern: str) -> bool:
    """True when ``pattern`` (Python syntax) finds the ``..`` part of a path (``../a``,
    ``a\\..\\b``, ``a/..``) and nothing in a plain one (``a/b/c.txt``, ``./a``, a version,
    an ellipsis): replaced by nothing, it takes parent-directory parts out of a name, a
    (weak) path-traversal defence. adm-zip's ``replace(/^(\\.\\.(\\/|\\\\|$))+/, '')``
    (GHSL-2020-198). Matched on those probes only, after :func:`_parse` accepts the pattern."""
    if _parse(pattern) is None:
        return False
    try:
        with silenced(FutureWarning):
            compiled = re.compile(pattern)
    except (re.error, ValueError, TypeError, OverflowError, RecursionError):
        return False
    found = [compiled.search(probe) for probe in _PARENT_PROBES]
    if not any(m is not None and ".." in m.group() for m in found):
        return False
    return all(compiled.search(plain) is None for plain in _PLAIN_PATHS)


_JS_NAMED = re.compile(r"\(\?<(?![=!])")
_JS_BACKREF = re.compile(r"\\k<([A-Za-z_$][\w$]*)>")


def from_javascript(pattern: str) -> str:
    """A JavaScript pattern in Python's syntax: named groups and their back-references,
    ``[^]`` (any character) and ``[]`` (nothing). Anything else either means the same in both
    or makes Python's parser refuse the pattern (then it is not analysed)."""
    out = _JS_NAMED.sub("(?P<", pattern)
    out = _JS_BACKREF.sub(r"(?P=\1)", out)
    return out.replace("[^]", r"[\s\S]").replace("[]", "(?!)")


REGEX_EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"^\s*,?\s*$", ("quadratic",)),
    (r"a+a+b", ("quadratic",)),
    (r"\w+\s?\w+$", ("quadratic",)),
    (r"^(a+)+$", ("exponential",)),
    (r"^(\w+\s?)*$", ("exponential",)),
    (r'"(?:\\.|[^"])*"', ("exponential",)),
    (r"^(?:(?:%s)*)(.*?)(?:[.,)>\n]|&gt;)*$", ("quadratic",)),
    # safe: separated by what neither repeat takes, disjoint alternatives, possessive, bounded
    (r"^\s*=\s*\w+$", ()),
    (r'"(?:\\.|[^"\\])*"', ()),
    (r"^[a-z]+\d+$", ()),
    (r"^(\w+\s)+$", ()),
    (r"^\s*+\s*$", ()),
    (r"^\s{0,10}\s{0,10}$", ()),
    (r"^([a-z]([ \ta-z]+[a-z])?)*$", ("exponential",)),
    (r"^(a[ab]?)*$", ("exponential",)),
    (r"^(ab?)*$", ()),
    (r"^(?:a|b)+$", ()),
    (r"^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*$", ()),
)
"""Patterns and the kinds of shape each has (run by the test suite)."""

SEARCH_EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r" *, *", (r"\ *",)),  # ws CVE-2021-32640: split on a comma between spaces
    (r"\s+$", (r"\s+",)),  # trailing whitespace: the classic quadratic trim
    (r"-?\d+\.", (r"\d+",)),
    (r"(\s*)=", (r"\s*",)),
    (r"(?:a+|b)c", ("a+",)),
    # safe: anchored, at a word boundary, nothing after the repeat that can fail, a literal first
    (r"^\s+$", ()),
    (r"\b\w+@", ()),
    (r"\s+", ()),
    (r"\s*(?:,\s*)?", ()),
    (r",\s*", ()),
    (r"x\s+$", ()),
    # a prefix the repeat after it can take: retried from every copy of the prefix in a run
    (r"\([^)]*\)|[\n\t]", (r"\([^\)]*",)),  # moment CVE-2022-31129: RFC 2822 comments
    (r"<[^>]*>", (r"<[^>]*",)),
    (r"\$\{[^}]+\}", (r"\$\{[^\}]+",)),
    (r"@\S+\s", (r"@\S+",)),
    # safe: the repeat cannot take the prefix, what follows takes it, anchored, nothing can fail
    (r"\([^()]*\)", ()),
    (r'"[^"]*"', ()),
    (r"<[^<>]*>", ()),
    (r"a[^b]*a", ()),
    (r"^<[^>]*>", ()),
    (r"<[^>]*", ()),
    # a longer prefix: what follows the repeat is found nowhere in the prefix repeated
    (r"\/\*\s*# sourceMappingURL=(.*)\*\/",  # postcss CVE-2021-23382
     (r"/\*\s*\#\ sourceMappingURL=(.*)",)),
    (r"<!--(.*)-->", (r"<!\-\-(.*)",)),
    # safe: the fixed pattern's repeat stops at the prefix, what follows is in the prefix
    # (`url(u` holds `u`), the end of the text ends the match
    (r"\/\*\s*# sourceMappingURL=((?:(?!sourceMappingURL=).)*)\*\/", ()),
    (r"url\((.*)u", ()),
    (r"foo=(.*)$", ()),
    (r"\([^)]*$", ()),
)
"""Patterns applied as a search and the shapes each is quadratic in: a leading repeat, or a
prefix and the repeat after it that can take it (run by the test suite)."""
