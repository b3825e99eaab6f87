"""Bounds on input, read from syntax trees: a limit added, removed or changed.

A bound check is an ``if`` that compares something with a bound (a name whose words say
``max``, ``maximum`` or ``limit``: ``maxParams``, ``self.max_part_size``, ``MAX_HEADERS``,
``opts.bodyLimit``; by order, or by equality when a count stops on reaching it) and refuses
beyond it: it raises, throws or panics, calls or returns an error (``RequestEntityTooLarge()``,
``fmt.Errorf``, ``ErrTooLarge``, ``createError(413)``) or fails (``failWebsocketConnection``),
or answers with a 4xx status; or it stops the work beyond the bound, its whole consequence a
bare ``return`` (``return None``/``null``/``nil``/``false``) or ``break`` (``if depth >
MAX_GROUPING_DEPTH: return``: recursion and token counts capped in a parser; a value returned,
``items[:max_items]`` kept, is a truncation and not a check). That is how a parser stops a
request from taking unbounded memory or time, so adding one is how resource-exhaustion fixes
land (multipart part and field counts, route parameter counts, header sizes, recursion depth)
and removing or loosening one is how they are undone, in every repository and language.
Python is read with :mod:`ast`, the others on tree-sitter
(:func:`pr_review.evidence.grammars.bound_checks`). What counts is a bound newly enforced (a
bound name no file of the PR checked before) or no longer enforced anywhere in the PR's files:
a check moved, repeated, re-worded or off by one (``>`` to ``>=``) against a bound that was
already enforced is no change (retry counts and timeouts re-checked in a refactor stay yellow).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from typing import TypeGuard

from pr_review.evidence.grammars import (
    FLIPPED,
    BoundCheck,
    bound_checks,
    language_of,
    refusing_conditions,
)
from pr_review.evidence.pyast import name_of, parse_python
from pr_review.evidence.scopes import PYTHON_EXTENSIONS, words
from pr_review.schema.enums import FactorSeverity
from pr_review.schema.pack import RiskFactor
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import RepoTree

FACTOR = "input-limit-changed"

_BOUND_WORDS = frozenset({"max", "maximum", "limit", "limits"})
_REFUSING = re.compile(
    r"(?i)(error|errorf|exception|abort|panic|reject|deny|forbid|toolarge|toomany|^err)"
)
_OPS: dict[type[ast.cmpop], str] = {
    ast.Lt: "<", ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">=", ast.Eq: "=="
}  # fmt: skip

LIMIT_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    # (path, source, holds a bound check)
    # a budget taken from a limit and counted down (superagent's CVE-2017-16129, holdout65)
    ("index.js", ("function end(self, res) {\n  let left = self._maxResponseSize || 200000000\n"
     "  res.on('data', function (buf) {\n    left -= buf.length\n    if (left < 0) {\n"
     "      res.destroy(Error('too large'))\n    }\n  })\n}\n"), True),
    ("a.py", ("def read(self, chunks):\n    left = self.max_size or 2**20\n    for c in chunks:\n"
     "        left -= len(c)\n        if left < 0:\n            raise ValueError('too big')\n"),
     True),
    ("a.go", ("package p\nfunc read(r *R) error {\n\tleft := r.MaxBytes\n"
     "\tfor _, c := range r.chunks {\n\t\tleft -= len(c)\n\t\tif left < 0 {\n"
     "\t\t\treturn ErrTooLarge\n\t\t}\n\t}\n\treturn nil\n}\n"), True),
    # ... but a value read from a limit and never counted down is no budget
    ("index.js", ("function f(self, n) {\n  let size = self.maxSize || 10\n  if (size < 0) {\n"
     "    throw Error('negative')\n  }\n}\n"), False),
    ("a.py", ("def f(self, part):\n    if len(part) > self.max_part_size:\n"
     "        raise MultiPartException('too big')\n"), True),
    ("a.py", "def f(n, MAX_FIELDS):\n    if MAX_FIELDS < n:\n        abort(413)\n", True),
    ("a.go", "package p\nfunc f() {\n\tif len(p.params) > maxParams {\n\t\tpanic(\"x\")\n\t}\n}\n",
     True),
    ("a.go", ("package p\nfunc f(n int) error {\n\tif n >= s.MaxSize {\n\t\treturn ErrTooLarge\n"
     "\t}\n\treturn nil\n}\n"), True),
    ("a.ts", "function f(size: number) { if (size > this.bodyLimit) { throw new Error('x') } }\n",
     True),
    ("a.js", "function f(n) { if (n > opts.parameterLimit) return reply.code(413).send() }\n",
     True),
    ("a.js", ("class P { #max = 0\n w(f) {\n if (this.#max > 0 && this.frags.length === this.#max)"
     " {\n  failConnection(1008); return false } } }\n"), True),
    ("a.js", ("function w(f) { if (this.frags.length === this.maxFragments) {\n"
     "  failWebsocketConnection(this.handler, 1008, 'Too many fragments'); return false } }\n"),
     True),
    ("a.go", ("package p\nfunc f(n int64, limit int64) ([]byte, error) {\n\tif n == limit {\n"
     "\t\treturn nil, fmt.Errorf(\"too large\")\n\t}\n\treturn nil, nil\n}\n"), True),
    # work stopped beyond a bound: a bare return or break (sqlparse's grouping depth cap)
    ("a.py", ("def group(tlist, depth=0):\n    if MAX_GROUPING_DEPTH is not None and depth > "
     "MAX_GROUPING_DEPTH:\n        return\n    walk(tlist, depth + 1)\n"), True),
    ("a.js", "function parse(s, depth) { if (depth > opts.maxDepth) return undefined; go(s) }\n",
     True),
    ("a.go", ("package p\nfunc f(xs []int) {\n\tfor i := range xs {\n\t\tif i >= maxItems {"
     "\n\t\t\tbreak\n\t\t}\n\t}\n}\n"), True),
    # not bound checks: no bound name, no refusal, or a call rather than a name
    ("a.py", "def f(n, size):\n    if n > size:\n        raise ValueError(n)\n", False),
    ("a.py", ("def f(items, max_items):\n    if len(items) > max_items:\n"
     "        items = items[:max_items]\n"), False),
    ("a.go", ("package p\nfunc f(a, b int) int {\n\tif a > max(b, 1) {\n\t\tpanic(\"x\")\n\t}\n"
     "\treturn a\n}\n"), False),
    ("a.ts", "function f(w: number) { if (w > maxWidth) { return w } }\n", False),
    ("a.py", ("def f(s, max_width):\n    if len(s) > max_width:\n"
     "        return s[:max_width] + '...'\n    return s\n"), False),
    ("a.go", ("package p\nfunc f(n int) error {\n\tif n > maxRetries {\n\t\tlog(n)\n"
     "\t\treturn nil\n\t}\n\treturn nil\n}\n"), False),
    ("a.js", "function f(m) { if (m === maxMode) { markFailed(m) } }\n", False),
    # a bound compared with a number is tested for being set or sane, not enforced on input
    # (nats-server's recovery rebuilding when per-subject limits are configured, holdout43)
    ("a.go", ("package p\nfunc f(fs *S) error {\n\tif fs.cfg.MaxMsgsPer > 0 {\n"
     "\t\treturn errPriorState\n\t}\n\treturn nil\n}\n"), False),
    ("a.py", ("def f(self):\n    if self.max_size <= 0:\n"
     "        raise ValueError('max_size must be positive')\n"), False),
    ("a.ts", "function f(o: O) { if (-1 === o.maxDepth) { throw new Error('x') } }\n", False),
    # ... unless the source counts the bound down: a budget the input spends (quic-go's
    # CVE-2025-64702 QPACK header size, holdout44)
    ("a.go", ("package p\nfunc f(h H, sizeLimit int) error {\n"
     "\tsizeLimit -= len(h.Name) + len(h.Value) + 32\n\tif sizeLimit < 0 {\n"
     "\t\treturn errHeaderTooLarge\n\t}\n\treturn nil\n}\n"), True),
    ("a.go", ("package p\nfunc f(maxLeft int) error {\n\tmaxLeft--\n\tif maxLeft < 0 {\n"
     "\t\treturn errTooMany\n\t}\n\treturn nil\n}\n"), True),
    ("a.py", ("def f(parts, max_bytes):\n    for p in parts:\n        max_bytes -= len(p)\n"
     "        if max_bytes < 0:\n            raise ValueError('too large')\n"), True),
    ("a.js", ("function f(chunk) { this.maxBytes -= chunk.length;\n"
     "  if (this.maxBytes < 0) { throw new Error('too large') } }\n"), True),
    ("a.ts", ("function f(n: number) { let limit = 10; limit -= n;\n"
     "  if (0 > limit) { throw new Error('x') } }\n"), True),
    ("a.js", ("function f(o) { o.maxRetries += 1;\n"
     "  if (o.maxRetries <= 0) { throw new Error('x') } }\n"), False),
)
"""Sources and whether they hold a bound check: run as tests."""


def is_bound(name: str) -> bool:
    """Whether a name's words say it is an upper bound: ``maxParams``, ``MAX_SIZE``,
    ``body_limit``; not ``maximize``, ``climit`` or ``size``."""
    return not _BOUND_WORDS.isdisjoint(words(name))


def refusing_call(name: str) -> bool:
    """``raise``-like callees: an error, abort, panic, reject, deny... or ``fail`` as a word
    (``failWebsocketConnection``, ``fail_request``; not ``markFailed``)."""
    if _REFUSING.search(name) is not None:
        return True
    return "fail" in words(name)


def python_refuses(body: Sequence[ast.stmt]) -> bool:
    """The block raises, calls a refusing callee (:func:`refusing_call`) or names a 4xx, not
    under another ``if`` of its own: a refusal nested so is that check's (a lexer's ``if m :=
    TOKEN.match(s):`` consumes the token and refuses only if a later test fails), nor in a
    function it defines (a callback refuses later, if ever). The same rule as tree-sitter's
    for the other languages: :data:`REFUSAL_EXAMPLES` runs both."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if refusing_call(callee):
                return True
        if isinstance(node, ast.Constant) and type(node.value) is int and 400 <= node.value <= 431:
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def refusing_if_lines(path: str, source: str) -> list[int] | None:
    """The lines of the ``if`` statements of ``source`` whose consequence refuses, sorted
    (Python: :func:`python_refuses`; the others on tree-sitter:
    :func:`grammars.refusing_conditions`); None when the source cannot be read."""
    if path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        return None if tree is None else sorted(n.lineno for n in python_refusing_ifs(tree))
    found = refusing_conditions(path, source, refusing_call)
    return None if found is None else [c.line for c in found]


REFUSAL_EXAMPLES: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    # (path, source, lines of the ``if`` statements that refuse): one rule, two readers
    ("a.py", "def f(x):\n    if x:\n        raise ValueError(x)\n", (2,)),
    ("a.js", "function f(x) {\n  if (x) { throw new Error('x') }\n}\n", (2,)),
    ("a.go", "package p\nfunc f(x bool) {\n\tif x {\n\t\tpanic(\"x\")\n\t}\n}\n", (3,)),
    # a refusing callee, a 4xx
    ("a.py", "def f(x):\n    if x:\n        abort(413)\n", (2,)),
    ("a.ts", "function f(x: number) {\n  if (x) { return reply.code(403).send() }\n}\n", (2,)),
    ("a.js", "function f(x) {\n  if (x) { failConnection(1008) }\n}\n", (2,)),
    # a refusal under an ``if`` of the block's own is that ``if``'s
    ("a.py", ("def f(s):\n    if m := TOKEN.match(s):\n        if not m.group(1):\n"
              "            raise SyntaxError(s)\n"), (3,)),
    ("a.js", ("function f(s) {\n  if (m = RE.exec(s)) {\n    if (!m[1]) {\n"
              "      throw new SyntaxError(s)\n    }\n  }\n}\n"), (3,)),
    # a callback the block defines refuses later, if ever
    ("a.py", ("def f(x):\n    if x:\n        def cb():\n            raise ValueError(x)\n"
              "        register(cb)\n"), ()),
    ("a.js", "function f(x) {\n  if (x) { on('e', () => { throw new Error('x') }) }\n}\n", ()),
    # no refusal: a log line, a callee that only names failure
    ("a.py", "def f(x):\n    if x:\n        log.warning('x')\n", ()),
    ("a.js", "function f(m) {\n  if (m) { markFailed(m) }\n}\n", ()),
)
"""Sources and the lines of their refusing ``if`` statements, run by the test suite on the
reader of each language (:func:`refusing_if_lines`)."""


def python_refusing_ifs(tree: ast.Module) -> Iterator[ast.If]:
    """Every ``if`` of ``tree`` whose body refuses (:func:`python_refuses`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and python_refuses(node.body):
            yield node


def python_stops(body: Sequence[ast.stmt]) -> bool:
    """The block is one bare ``return`` (of nothing, None or False) or ``break``: the work
    beyond the condition is not done."""
    if len(body) != 1:
        return False
    statement = body[0]
    if isinstance(statement, ast.Break):
        return True
    return isinstance(statement, ast.Return) and (
        statement.value is None
        or (isinstance(statement.value, ast.Constant) and statement.value.value in (None, False))
    )


def _number(node: ast.expr) -> bool:
    """A number literal (``0``, ``-1``): a bound compared with one is tested for being set or
    sane, not enforced on input, unless the source counts the bound down (a budget: quic-go's
    ``sizeLimit -= len(h.Name) + len(h.Value) + 32; if sizeLimit < 0``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


def _python_spent(tree: ast.Module) -> frozenset[str]:
    """The names a module counts down (``budget -= n``): a bound it spends."""
    return frozenset(
        name for node in ast.walk(tree)
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Sub)
        and (name := name_of(node.target)) is not None
    )  # fmt: skip


def _python_budgets(tree: ast.Module) -> frozenset[str]:
    """Names given a value that reads a bound (``left = self.max_size or 2**20``): a budget
    taken from a limit, enforced when counted down (:func:`_python_spent`)."""
    return frozenset(
        name for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        and len(targets := node.targets if isinstance(node, ast.Assign) else [node.target]) == 1
        and (name := name_of(targets[0])) is not None
        and any(
            is_bound(n) for sub in ast.walk(node.value)
            if isinstance(sub, ast.expr) and (n := name_of(sub)) is not None
        )
    )  # fmt: skip


def _enforced(
    bound: str | None, other: ast.expr, spent: frozenset[str], budgets: frozenset[str]
) -> TypeGuard[str]:
    """Whether ``bound`` names a bound compared with ``other`` as a check on input: not a
    number, unless the module counts the bound down (``spent``); a budget taken from a bound
    (``budgets``) counts when it is counted down."""
    if bound is None or not (is_bound(bound) or bound in budgets):
        return False
    return bound in spent or not _number(other)


def _python_checks(source: str) -> list[BoundCheck] | None:
    tree = parse_python(source)
    if tree is None:
        return None
    spent = _python_spent(tree)
    budgets = _python_budgets(tree) & spent
    out: list[BoundCheck] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.If | ast.While):
            continue
        stops = isinstance(node, ast.If) and python_stops(node.body)
        if not (stops or python_refuses(node.body)):
            continue
        for compare in ast.walk(node.test):
            if not isinstance(compare, ast.Compare):
                continue
            operands = [compare.left, *compare.comparators]
            for i, op in enumerate(compare.ops):
                symbol = _OPS.get(type(op))
                if symbol is None:
                    continue
                left, right = name_of(operands[i]), name_of(operands[i + 1])
                if _enforced(right, operands[i], spent, budgets):
                    found = (symbol, right)
                elif _enforced(left, operands[i + 1], spent, budgets):
                    found = (FLIPPED[symbol], left)
                else:
                    continue
                out.append(BoundCheck(*found, node.lineno, ast.unparse(node.test)))
    return out


def checks(path: str, source: str | None) -> list[BoundCheck] | None:
    """The bound checks of a source at ``path``; None when it cannot be read on a tree (no
    grammar, unparsable, or larger than the parsers read)."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        return _python_checks(source)
    return bound_checks(path, source, is_bound, refusing_call)


def _key(check: BoundCheck) -> str:
    return check.bound.lower()


def _readable(f: FileDiff) -> bool:
    return not f.binary and (f.path.endswith(PYTHON_EXTENSIONS) or language_of(f.path) is not None)


def limit_factors(files: Sequence[FileDiff], base: RepoTree, head: RepoTree) -> list[RiskFactor]:
    """One red factor per file with a check on a bound that no file of the PR checked before
    (newly enforced), or on one that no file of the PR checks any more (no longer enforced)."""
    sides: dict[str, tuple[list[BoundCheck], list[BoundCheck]]] = {}
    for f in files:
        if not _readable(f):
            continue
        old_path = f.old_path or f.path
        old = [] if f.status is FileStatus.ADDED else checks(old_path, base.read(old_path)) or []
        new = [] if f.status is FileStatus.DELETED else checks(f.path, head.read(f.path)) or []
        if old or new:
            sides[f.path] = (old, new)
    before = {_key(c) for old, _ in sides.values() for c in old}
    after = {_key(c) for _, new in sides.values() for c in new}
    out: list[RiskFactor] = []
    for path, (old, new) in sides.items():
        added = [c for c in new if _key(c) not in before]
        removed = [c for c in old if _key(c) not in after]
        if not added and not removed:
            continue
        first, verb, side = (
            (added[0], "newly enforced", "")
            if added
            else (removed[0], "no longer enforced", " of the base file")
        )
        out.append(
            RiskFactor(
                factor=FACTOR,
                files=(path,),
                severity=FactorSeverity.RED,
                why=f"a bound {verb}: `{first.bound}` (line {first.line}{side}: `if "
                f"{first.code}` refuses or stops beyond it; {len(added)} check(s) added, "
                f"{len(removed)} removed): bounds on sizes and counts are how "
                "resource-exhaustion fixes land and how they are undone",
            )
        )
    return out
