"""Where changed code sits: the enclosing module, classes and functions of each changed line.

Python is read with the standard :mod:`ast` (a function's span runs from its first decorator
to its last line); a changed line counts only when it holds code once comments and docstrings
are blanked. Other languages are read with tree-sitter where a grammar exists
(:mod:`pr_review.evidence.grammars`). Files without a grammar, or sources that do not parse,
are known by their module name only, and say so (``ScopedLine.parsed`` is False).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pr_review.evidence import grammars
from pr_review.evidence.grammars import Scope
from pr_review.evidence.lexing import strip_comments
from pr_review.evidence.pyast import parse_python
from pr_review.sources.paths import module_name

PYTHON_EXTENSIONS = (".py", ".pyi")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass(frozen=True)
class ScopedLine:
    """A changed code line and the names of what encloses it, outermost first."""

    line: int
    chain: tuple[str, ...]
    """Module name, then classes and functions from the outside in."""
    parsed: bool
    """True when the chain comes from a syntax tree, False when only the module is known."""

    @property
    def qualified(self) -> str:
        """``module:Class.method`` (or just the module)."""
        inner = ".".join(self.chain[1:])
        return f"{self.chain[0]}:{inner}" if inner else self.chain[0]


def words(identifier: str) -> tuple[str, ...]:
    """The lower-cased words of an identifier: ``get_netrc_auth`` -> get, netrc, auth;
    ``SecureCookieSession`` -> secure, cookie, session; ``HTTPAdapter`` -> http, adapter."""
    return tuple(w.lower() for part in identifier.split("_") for w in _WORD.findall(part))


def _scopes(node: ast.AST) -> list[Scope]:
    out: list[Scope] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
            end = child.end_lineno or child.lineno
            out.append(Scope(child.name, start, end, _scopes(child)))
        else:
            out.extend(_scopes(child))
    return sorted(out, key=lambda s: s.start)


def _chain(scopes: list[Scope], line: int) -> list[str]:
    names: list[str] = []
    level = scopes
    while level:
        index = bisect_right([s.start for s in level], line) - 1
        if index < 0 or level[index].end < line:
            break
        names.append(level[index].name)
        level = level[index].children
    return names


def scoped_lines(path: str, source: str | None, lines: Iterable[int]) -> list[ScopedLine]:
    """Each of ``lines`` (1-based, of ``source``) that holds code, with its enclosing scopes.

    Without a readable, parsable Python source every line is kept with the module name only.
    """
    module = module_name(path)
    wanted = sorted(set(lines))
    if not path.endswith(PYTHON_EXTENSIONS):
        return _other_language(path, source, module, wanted)
    tree = parse_python(source) if source is not None else None
    if tree is None or source is None:
        return [ScopedLine(n, (module,), parsed=False) for n in wanted]
    code = strip_comments(source, path).splitlines()
    top = _scopes(tree)
    out = []
    for n in wanted:
        if not 0 < n <= len(code) or not code[n - 1].strip():
            continue
        out.append(ScopedLine(n, (module, *_chain(top, n)), parsed=True))
    return out


def _other_language(
    path: str, source: str | None, module: str, wanted: list[int]
) -> list[ScopedLine]:
    parsed = grammars.parse(path, source)
    if parsed is None:
        return [ScopedLine(n, (module,), parsed=False) for n in wanted]
    top = parsed.scopes
    return [
        ScopedLine(n, (module, *_chain(top, n)), parsed=True)
        for n in wanted
        if n in parsed.code_lines
    ]


def scope_tree(path: str, source: str | None) -> list[Scope] | None:
    """The classes and functions of a source, nested (Python on :mod:`ast`, others on their
    tree-sitter tree); None when the source is not read on a tree."""
    if source is None:
        return None
    if path.endswith(PYTHON_EXTENSIONS):
        tree = parse_python(source)
        return None if tree is None else _scopes(tree)
    parsed = grammars.parse(path, source)
    return None if parsed is None else parsed.scopes


def enclosing(top: list[Scope], line: int) -> list[str]:
    """The names of the classes and functions around ``line``, outermost first."""
    return _chain(top, line)


def chains(top: list[Scope], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every class and function of ``top``, nested ones too, as its chain after ``prefix``."""
    for scope in top:
        chain = (*prefix, scope.name)
        yield chain
        yield from chains(scope.children, chain)


def defined_chains(path: str, source: str | None) -> frozenset[tuple[str, ...]] | None:
    """Every class and function of a source as its chain (module first), or None when the
    source is not read on a tree."""
    top = scope_tree(path, source)
    return None if top is None else frozenset(chains(top, (module_name(path),)))


def python_scopes(tree: ast.Module) -> list[Scope]:
    """The classes and functions of a parsed Python module, nested."""
    return _scopes(tree)


def find_scope(
    top: list[Scope], chain: tuple[str, ...], line: int | None = None, rank: int = 0
) -> Scope | None:
    """The class or function ``chain`` (module first, as :class:`ScopedLine` gives it) names
    among ``top``; None when there is no such scope. Where one level holds several of one name
    (a prototype method and a function declaration both ``serializeToString``, a property's
    getter and setter, ``typing.overload`` stubs), the one spanning ``line`` when one does,
    else, at the innermost level, the ``rank``-th of them (0: the first)."""
    if len(chain) < 2:
        return None
    level, found = top, None
    for depth, name in enumerate(chain[1:], start=2):
        named = [s for s in level if s.name == name]
        if not named:
            return None
        spanning = [s for s in named if line is not None and s.start <= line <= s.end]
        last = depth == len(chain)
        found = spanning[0] if spanning else named[rank] if last and rank < len(named) else named[0]
        level = found.children
    return found


def scope_rank(top: list[Scope], chain: tuple[str, ...], scope: Scope | None) -> int:
    """Which of the scopes of ``chain``'s name at its level ``scope`` is (0: the first, or
    ``scope`` is None): the same-named function to compare it with on the file's other side."""
    if scope is None or len(chain) < 2:
        return 0
    parent = find_scope(top, chain[:-1], scope.start) if len(chain) > 2 else None
    level = top if len(chain) == 2 else (parent.children if parent is not None else [])
    named = [s for s in level if s.name == chain[-1]]
    return next((i for i, s in enumerate(named) if s is scope), 0)
