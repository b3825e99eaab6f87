"""One pass over each file's changed lines: rule hits per category and check-then-act.

Comments (and, for Python read whole from its revision, docstrings) are blanked before
matching: a comment saying "TTL" or a docstring showing an ``@app.route`` example changes
nothing. Categories that scan raw text (secrets leak from comments too) see everything;
``code_only`` categories also lose string literals and run on source-code files only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from pr_review.evidence.lexing import strip_comments, strip_strings
from pr_review.evidence.pyast import reduced_key, typing_only_lines
from pr_review.evidence.rules import CATEGORIES, Category
from pr_review.evidence.scan import Block, Hit, block, combine, hits
from pr_review.evidence.triggers import lines_holding
from pr_review.lookalike import fold_lower
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree
from pr_review.sources.paths import JS_EXTENSIONS, PathKind, classify, extension
from pr_review.verifiers.secret_patterns import passes_rule_check, placeholder_url_credentials

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
def _all_triggers() -> frozenset[str]:
    return frozenset(t for c in CATEGORIES for t in c.triggers)


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[Category, re.Pattern[str]], ...]:
    return tuple((c, combine(r.pattern for r in c.rules)) for c in CATEGORIES)


def scan_file(
    f: FileDiff, *, full: bool, old: str | None = None, new: str | None = None
) -> FileScan:
    """Scan one file's added and removed lines; without ``full`` only raw-text categories run.

    ``old`` and ``new`` are the file's base and head texts when readable: Python is then
    lexed whole (docstrings and comments blanked exactly), not as a fragment.
    """
    added = [pair for h in f.hunks for pair in h.added]
    removed = [pair for h in f.hunks for pair in h.removed]
    raw_added, raw_removed = block(added), block(removed)
    code_added = _code_block(raw_added, f.path, new)
    code_removed = _code_block(raw_removed, f.path, old)
    bare_added, bare_removed = _bare(code_added), _bare(code_removed)
    # Look-alike letters folded before any rule runs ("password" with a Cyrillic a).
    raw_added, raw_removed = raw_added.folded(), raw_removed.folded()
    code_added, code_removed = code_added.folded(), code_removed.folded()
    bare_added, bare_removed = bare_added.folded(), bare_removed.folded()
    found: dict[int, dict[str, list[int]]] = {}

    def lines_of(b: Block) -> dict[str, list[int]]:
        """Every category's trigger words in one pass over the block, done once per block."""
        if id(b) not in found:
            found[id(b)] = lines_holding(fold_lower(b.text), _all_triggers())
        return found[id(b)]

    source_code = classify(f.path) is PathKind.CODE
    result_added: dict[str, list[Hit]] = {}
    result_removed: dict[str, list[Hit]] = {}
    for category, pattern in _compiled():
        if not full and not category.policy.any_file:
            continue
        if category.policy.code_only and not source_code:
            continue
        raw = category.policy.any_file
        bare = category.policy.code_only
        side_added = raw_added if raw else bare_added if bare else code_added
        side_removed = raw_removed if raw else bare_removed if bare else code_removed
        found_added = hits(
            pattern, side_added, category.triggers, MAX_HITS, found=lines_of(side_added)
        )
        found_removed = hits(
            pattern, side_removed, category.triggers, MAX_HITS, found=lines_of(side_removed)
        )
        if category.name == SECRETS:
            found_added = _new_secrets(category, found_added, added, raw_removed.text)
            found_removed = _new_secrets(category, found_removed, removed, "")
        if found_added:
            result_added[category.name] = found_added
        if found_removed:
            result_removed[category.name] = found_removed
    # JavaScript runs one event loop per process: code between two ``await``s runs to its
    # end before any other request's code does
    event_loop = extension(f.path) in JS_EXTENSIONS
    cta = _check_then_act(code_added, event_loop=event_loop) if full else ()
    return FileScan(f.path, result_added, result_removed, cta)


MAX_SOURCE_CHARS = 2_000_000
"""Larger sources are lexed as fragments (their changed lines only)."""


def _code_block(raw: Block, path: str, source: str | None = None) -> Block:
    if raw.empty:
        return raw
    python = path.endswith((".py", ".pyi"))
    if python and source is not None and len(source) <= MAX_SOURCE_CHARS:
        original = source.splitlines()
        if all(0 < n <= len(original) for n in raw.numbers) and all(
            original[n - 1] == raw.text[start : start + len(original[n - 1])]
            for n, start in zip(raw.numbers, raw.starts, strict=True)
        ):
            lines = strip_comments(source, path).splitlines()
            if len(lines) == len(original):
                return block([(n, lines[n - 1]) for n in raw.numbers])
    # Fragments of Python do not tokenize reliably: lex them as any hash-comment language.
    stripped = strip_comments(raw.text, "fragment.rb" if python else path)
    return Block(stripped, raw.starts, raw.numbers)


SECRETS = "secrets"
_LONG_VALUE = re.compile(r"[A-Za-z0-9+/=_.-]{16,}")


def _new_secrets(
    category: Category, found: list[Hit], lines: Sequence[tuple[int, str]], other_side: str
) -> list[Hit]:
    """Secret hits that are real and new: not a URL credential for a loopback or reserved
    example host (RFC 2606/6761) or with a placeholder password, and not a value the PR
    also removes (a documented example moved or re-quoted is not a new secret)."""
    if not found:
        return found
    text = dict(lines)
    kept = []
    for hit in found:
        line = text.get(hit.line, "")
        match = re.search(category.rules[hit.rule].pattern, line)
        value = match.group(0) if match else line
        if placeholder_url_credentials(value) or not passes_rule_check(value):
            continue
        values = _LONG_VALUE.findall(value)
        if other_side and values and all(v in other_side for v in values):
            continue
        kept.append(hit)
    return kept


DATA_MIGRATION = "data-migration"
_REVERSIBLE_OPERATIONS = frozenset({"RunPython", "RunSQL"})
_REVERSE_KEYWORDS = frozenset({"reverse_code", "reverse_sql"})


def _reverse_only(scan: FileScan, old: str, new: str) -> bool:
    """A Python migration whose data-migration hits change only how it is undone: both sides
    run the same operations forward once the reverse of Django's ``RunPython``/``RunSQL`` is
    set aside (``reverse_code=``, ``reverse_sql=`` or the second positional argument), layout
    and docstrings aside (django-axes making a deduplicating migration reversible with
    ``reverse_code=migrations.RunPython.noop`` was red, read on holdout71)."""
    if DATA_MIGRATION not in scan.added and DATA_MIGRATION not in scan.removed:
        return False
    keys = [reduced_key(source, _REVERSIBLE_OPERATIONS, _forward_only) for source in (old, new)]
    return keys[0] is not None and keys[0] == keys[1]


def _forward_only(call: ast.Call) -> None:
    call.args = call.args[:1]
    call.keywords = [k for k in call.keywords if k.arg not in _REVERSE_KEYWORDS]


def _without_known_secrets(scan: FileScan, f: FileDiff, base_text: str | None) -> FileScan:
    """``scan`` without the secret hits whose values the base file already holds: a value the
    file committed before is no new credential wherever the PR repeats it (oauth2-proxy's
    config test adding a case with the client and cookie secrets its other cases use, read
    on holdout71); a value new to the file still counts."""
    if not base_text:
        return scan
    category = next(c for c in CATEGORIES if c.name == SECRETS)
    added = [pair for h in f.hunks for pair in h.added]
    kept = _new_secrets(category, scan.added[SECRETS], added, base_text)
    if len(kept) == len(scan.added[SECRETS]):
        return scan
    others = {k: v for k, v in scan.added.items() if k != SECRETS}
    return replace(scan, added=others | ({SECRETS: kept} if kept else {}))


def _bare(code: Block) -> Block:
    """``code`` with string literals' contents blanked too."""
    if code.empty:
        return code
    return Block(strip_strings(code.text), code.starts, code.numbers)


_YIELDS = re.compile(r"\bawait\b|\byield\b|\.then\s*\(")
"""Where a JavaScript function gives the event loop back (another request may run there)."""


def _check_then_act(code: Block, *, event_loop: bool = False) -> tuple[int, ...]:
    """Writes preceded (within a window) by a read of the same key on the same shared store.

    With ``event_loop`` (JavaScript, TypeScript), only when the code between the read and the
    write gives the loop back (``await``, ``yield``, ``.then(``): without it nothing can run
    in between (mongoose's path trie, ``node.children.get(s)`` then ``.set(s, child)`` on a
    ``Map``, held out on holdout35, was red), while ``if (!(await cache.get(k))) await
    cache.set(k, v)`` still races."""
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
            window = code.text[_offset_of(code, reads[(recv, key)]) : _line_end(code, match)]
            if not _SQL_ATOMIC.search(window) and (not event_loop or _YIELDS.search(window)):
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
            window = code.text[_offset_of(code, earlier[-1]) : _statement_end(code, match)]
            if not _SQL_ATOMIC.search(window):
                flagged.append(line)
    return flagged


def _line_end(code: Block, match: re.Match[str]) -> int:
    """The end of the line a write is on: its arguments (``nx=True``) are part of it."""
    end = code.text.find("\n", match.end())
    return len(code.text) if end < 0 else end


_STATEMENT_END = re.compile(r"[;\"'`]")


def _statement_end(code: Block, match: re.Match[str]) -> int:
    """The end of the SQL statement a write begins (its ``;`` or the end of the string that
    holds it): ``INSERT INTO sessions ... ON CONFLICT (token) DO UPDATE ...`` is an atomic
    upsert, whatever read came before (scs's session stores were red twice for a ``SELECT`` in
    ``Find`` above an upsert in ``Commit``, held out on holdout74)."""
    end = _STATEMENT_END.search(code.text, match.end())
    return len(code.text) if end is None else end.end()


def _offset_of(code: Block, line: int) -> int:
    return code.starts[code.numbers.index(line)]


def scan_all(
    files: Sequence[FileDiff],
    code_paths: frozenset[str],
    base: RepoTree | None = None,
    head: RepoTree | None = None,
) -> dict[str, FileScan]:
    """Scan every file; code files get every category, others only raw-text ones. With the
    revisions' trees, Python files are lexed whole."""
    out = {}
    for f in files:
        full = f.path in code_paths
        old = new = None
        if full and base is not None and head is not None and f.path.endswith((".py", ".pyi")):
            old = None if f.status is FileStatus.ADDED else base.read(f.old_path or f.path)
            new = None if f.status is FileStatus.DELETED else head.read(f.path)
        scan = scan_file(f, full=full, old=old, new=new)
        if SECRETS in scan.added and base is not None and f.status is not FileStatus.ADDED:
            known = old if old is not None else base.read(f.old_path or f.path)
            scan = _without_known_secrets(scan, f, known)
        if old is not None and new is not None and _reverse_only(scan, old, new):
            scan = replace(
                scan,
                added={k: v for k, v in scan.added.items() if k != DATA_MIGRATION},
                removed={k: v for k, v in scan.removed.items() if k != DATA_MIGRATION},
            )
        hit = any(name != SECRETS for name in (*scan.added, *scan.removed))
        if hit and old is not None and new is not None:
            # both sides' statements are compared only when a content rule fired
            scan = _without_typing_only(scan, *typing_only_lines(old, new))
        out[f.path] = scan
    return out


def _without_typing_only(
    scan: FileScan, old_lines: frozenset[int], new_lines: frozenset[int]
) -> FileScan:
    """Drop hits on lines whose statement changed only in its type annotations
    (``validate_cert: Optional[bool]`` -> ``validate_cert: bool | None`` is no TLS change).
    Secrets are never dropped."""
    if not old_lines and not new_lines:
        return scan

    def kept(hits: dict[str, list[Hit]], lines: frozenset[int]) -> dict[str, list[Hit]]:
        out = {}
        for name, found in hits.items():
            left = found if name == SECRETS else [h for h in found if h.line not in lines]
            if left:
                out[name] = left
        return out

    return FileScan(scan.path, kept(scan.added, new_lines), kept(scan.removed, old_lines),
                    scan.check_then_act)  # fmt: skip
