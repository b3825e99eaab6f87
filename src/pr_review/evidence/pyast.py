"""Python behaviour equality on syntax trees (standard ``ast``; no third-party parser).

Two Python sources behave the same when their trees are equal once docstrings (every string
constant standing alone as a statement) are dropped: comments, blank lines, line wrapping,
quoting style and docstring wording then cannot matter. Attributes (line and column numbers)
are left out of the comparison.
"""

from __future__ import annotations

import ast
import copy
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from pr_review.evidence.shared_parses import parsed

MAX_SOURCE_CHARS = 1_000_000
"""Larger sources are not parsed (the lexical analysis still runs on their changed lines)."""

_DOC_OWNERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


_STATEMENT_LISTS = ("body", "orelse", "finalbody")


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` without the string constants that stand alone as statements (in place): the
    docstrings of modules, classes and functions, and the attribute docstrings written after an
    assignment (``crawler = None`` then a string on the next line, read by Sphinx). Python
    evaluates such a statement to nothing (CPython does not even compile it); only the first
    one of a module, class or function becomes its ``__doc__``, and docstrings are prose."""
    for node in ast.walk(tree):
        for field in _STATEMENT_LISTS:
            body = getattr(node, field, None)
            if not isinstance(body, list) or not any(
                isinstance(s, ast.stmt) and _is_docstring(s) for s in body
            ):
                continue
            setattr(node, field, [s for s in body if not _is_docstring(s)] or [ast.Pass()])
    return tree


def behaviour_tree(source: str) -> ast.Module | None:
    """``source``'s own tree (a fresh parse, the caller's to change) without docstrings, or
    None when it does not parse (or is too large to parse within budget)."""
    tree = _parse(source)
    return None if tree is None else _without_docstrings(tree)


def behaviour_key(source: str) -> str | None:
    """A canonical dump of ``source``'s tree without docstrings (:func:`behaviour_tree`), or
    None when it does not parse."""
    tree = behaviour_tree(source)
    return None if tree is None else canonical_dump(tree)


def reduced_key(
    source: str, callees: frozenset[str], reduce: Callable[[ast.Call], None]
) -> str | None:
    """:func:`behaviour_key` with every call whose last name is in ``callees`` first handed
    to ``reduce``, which sets some of its arguments aside (``setup()``'s descriptive
    metadata, a migration operation's reverse); None when ``source`` does not parse."""
    tree = behaviour_tree(source)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node.func) in callees:
            reduce(node)
    return canonical_dump(tree)


def canonical_dump(tree: ast.AST) -> str:
    """A dump of ``tree`` that leaves out field names and positions: equal for equal code."""
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def prose_key(source: str, is_prose: Callable[[str, str], bool]) -> str | None:
    """Like :func:`behaviour_key` with the strings people read blanked: every string constant
    in the value of a keyword argument, a dictionary entry with a constant key, or an
    assignment to a name or attribute, that ``is_prose(name, text)`` accepts (``help="..."``,
    ``{"description": ...}``, ``HELP = "usage: ..."``). An f-string's expressions stay. None when
    the source does not parse."""
    tree = _parse(source)
    if tree is None:
        return None
    for node in ast.walk(_without_docstrings(tree)):
        for name, value in _bindings(node):
            for leaf in ast.walk(value):
                if not isinstance(leaf, ast.Constant):
                    continue
                if isinstance(leaf.value, str) and is_prose(name, leaf.value):
                    leaf.value = "<prose>"
    return canonical_dump(tree)


def _bindings(node: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """The values ``node`` binds to a name: a keyword argument, a dictionary entry with a
    constant string key, an assignment to names or attributes (the first target's name)."""
    if isinstance(node, ast.keyword) and node.arg is not None:
        yield node.arg, node.value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            text = key.value if isinstance(key, ast.Constant) else None
            if isinstance(text, str):
                yield text, value
    elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {name_of(t) for t in targets}
        if len(names) == 1 and (name := names.pop()) is not None:
            yield name, node.value


def name_of(node: ast.expr) -> str | None:
    """The last name of a name or an attribute (``x`` -> ``x``, ``self.max_size`` ->
    ``max_size``); None for any other expression."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def shape_key(source: str) -> str | None:
    """Like :func:`behaviour_key` with every name blanked (variables, attributes, parameters,
    functions, classes, imports; string constants kept): two sources with equal shape keys
    differ at most by renames. Statements moved into or out of a block (``try:``, ``if``) give
    a different key: indentation is structure in Python, so a comparison of tokens cannot see
    it. None when the source does not parse."""
    tree = _parse(source)
    if tree is None:
        return None
    for node in ast.walk(_without_docstrings(tree)):
        if isinstance(node, ast.Constant):
            continue
        for name, value in ast.iter_fields(node):
            if isinstance(value, str):
                setattr(node, name, "_")
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                setattr(node, name, ["_"] * len(value))  # global/nonlocal names
    return canonical_dump(tree)


def same_behaviour(old: str, new: str) -> bool:
    """True when both sources parse and differ only in comments, layout and docstrings."""
    if old == new:
        return True
    old_key = behaviour_key(old)
    return old_key is not None and old_key == behaviour_key(new)


def parse_python(source: str, limit: int = MAX_SOURCE_CHARS) -> ast.Module | None:
    """The module tree of ``source``, or None when it does not parse or is over ``limit``
    characters. Every ``ast.parse`` of the package goes through here (see ``_PARSE_LOCK``).
    The tree is shared within a pack (:mod:`pr_review.evidence.shared_parses`): do not change
    it."""
    return parsed(f"python:{limit}", source, partial(_parse, source, limit))


_PARSE_LOCK = threading.Lock()
"""CPython 3.11's AST constructor keeps its recursion depth in shared state: two threads
parsing at once fail with "SystemError: AST constructor recursion depth mismatch" (seen when
the eval reviews cases concurrently), and ``warnings.catch_warnings`` is process-global too.
Parsing is serialized; it is a small part of a review."""


@contextmanager
def silenced(category: type[Warning] = Warning) -> Iterator[None]:
    """Warnings of ``category`` ignored for the block, one block at a time in the process
    (:data:`_PARSE_LOCK`): every parse of the PR's text that quiets Python's warnings goes
    through here (``ast.parse`` on invalid escapes, the regex parser's "Possible nested set"),
    so no two threads save and restore the warning filters across each other."""
    with _PARSE_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        yield


def _parse(source: str, limit: int = MAX_SOURCE_CHARS) -> ast.Module | None:
    if len(source) > limit:
        return None
    try:
        with silenced():  # invalid escapes in the PR's code are its business
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _kind(node: ast.AST) -> str | None:
    """What error path ``node`` is: the handled exception types, a raise, or a finally."""
    if isinstance(node, ast.ExceptHandler):
        caught = "" if node.type is None else ast.unparse(node.type)
        return f"except {caught}".strip()
    if isinstance(node, ast.Raise):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return "raise" if exc is None else f"raise {ast.unparse(exc)}"
    if isinstance(node, ast.Try | ast.TryStar) and node.finalbody:
        return "finally"
    return None


def error_paths(source: str) -> dict[str, list[tuple[str, int]]] | None:
    """Each function's (or the module's, ``""``) error paths as (kind, line), or None when
    the source does not parse."""
    tree = _parse(source)
    if tree is None:
        return None
    out: dict[str, list[tuple[str, int]]] = {}

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{scope}.{child.name}" if scope else child.name
                out.setdefault(name, [])
                visit(child, name)
                continue
            kind = _kind(child)
            if kind is not None:
                out.setdefault(scope, []).append((kind, getattr(child, "lineno", 0)))
            visit(child, scope)

    out[""] = []
    visit(tree, "")
    return out


def lost_error_paths(old: str, new: str) -> list[tuple[str, str, int]] | None:
    """Error paths of the base side whose scope still exists on the head side but has fewer
    of that kind, and the file as a whole holds fewer: (scope, kind, base line). None when
    either side does not parse. A scope that is gone entirely was removed or moved, not
    weakened."""
    before, after = error_paths(old), error_paths(new)
    if before is None or after is None:
        return None
    totals_before = Counter(kind for paths in before.values() for kind, _ in paths)
    totals_after = Counter(kind for paths in after.values() for kind, _ in paths)
    lost: list[tuple[str, str, int]] = []
    for scope, paths in before.items():
        if scope not in after:
            continue
        remaining = [kind for kind, _ in after[scope]]
        for kind, line in paths:
            if kind in remaining:
                remaining.remove(kind)
            else:
                lost.append((scope, kind, line))
    # A kind the file holds as often as before was moved between its scopes, not lost.
    lost = [entry for entry in lost if totals_after[entry[1]] < totals_before[entry[1]]]
    guarded = _guarded_statements(old)
    remaining_statements = _statements(new)
    # A handler whose protected statements are all gone was removed with the code it
    # protected: nothing left runs without its error path.
    return [
        (scope, kind, line)
        for scope, kind, line in lost
        if not kind.startswith("except")
        or guarded.get(line, set()) & remaining_statements.get(scope, set())
    ]


Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, Function]]:
    """Every function and method below ``tree``, nested ones too, with its qualified name
    (``Class.method``, ``outer.inner``), each before the functions inside it."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}.{child.name}" if prefix else child.name
            if not isinstance(child, ast.ClassDef):
                yield name, child
            yield from functions(child, name)
        else:
            yield from functions(child, prefix)


def _scoped_walk(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    """Every node with the name of its function or class scope (``""`` for the module)."""
    out: list[tuple[str, ast.AST]] = []

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = f"{scope}.{child.name}" if scope else child.name
            out.append((inner, child))
            visit(child, inner)

    visit(tree, "")
    return out


def _guarded_statements(source: str) -> dict[int, set[str]]:
    """Each ``except`` handler's line -> the statements its ``try`` protects (dumped)."""
    tree = _parse(source)
    out: dict[int, set[str]] = {}
    for _, node in _scoped_walk(tree) if tree is not None else []:
        if isinstance(node, ast.Try | ast.TryStar):
            body = {canonical_dump(stmt) for stmt in node.body}
            for handler in node.handlers:
                out[handler.lineno] = body
    return out


def _statements(source: str) -> dict[str, set[str]]:
    """Each scope's statements (dumped), nested ones included."""
    tree = _parse(source)
    out: dict[str, set[str]] = {}
    for scope, node in _scoped_walk(tree) if tree is not None else []:
        if isinstance(node, ast.stmt):
            out.setdefault(scope, set()).add(canonical_dump(node))
    return out


class _StripAnnotations(ast.NodeTransformer):
    """The same tree without type annotations (they never run)."""

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.annotation = None
        node.type_comment = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.returns = None
        node.type_comment = None
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(
        self, node: ast.AsyncFunctionDef
    ) -> ast.AST:
        node.returns = None
        node.type_comment = None
        return self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is None:
            return ast.Pass()
        return ast.Assign(targets=[node.target], value=self.visit(node.value), lineno=0)


def _stmt_keys(tree: ast.Module) -> dict[int, tuple[int, str, str]]:
    """For each line, the smallest statement holding it: (its size, raw dump, dump without
    annotations)."""
    out: dict[int, tuple[int, str, str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.end_lineno is None:
            continue
        size = node.end_lineno - node.lineno
        raw = ast.dump(node)
        bare = ast.dump(_StripAnnotations().visit(_copy(node)))
        for line in range(node.lineno, node.end_lineno + 1):
            if line not in out or size < out[line][0]:
                out[line] = (size, raw, bare)
    return out


def _copy(node: ast.stmt) -> ast.stmt:
    return copy.deepcopy(node)


def typing_only_lines(old: str, new: str) -> tuple[frozenset[int], frozenset[int]]:
    """Lines of ``old`` and of ``new`` whose statement changed only in its type annotations
    (``validate_cert: Optional[bool] = None`` -> ``validate_cert: bool | None = None``): the
    statement carries annotations, and the other side has a statement equal to it once
    annotations are dropped but different with them. Empty sets when either side does not
    parse."""
    old_tree, new_tree = parse_python(old), parse_python(new)
    if old_tree is None or new_tree is None:
        return frozenset(), frozenset()
    old_keys, new_keys = _stmt_keys(old_tree), _stmt_keys(new_tree)

    def typing_only(
        mine: dict[int, tuple[int, str, str]], theirs: dict[int, tuple[int, str, str]]
    ) -> frozenset[int]:
        by_bare: dict[str, set[str]] = {}
        for _, raw, bare in theirs.values():
            by_bare.setdefault(bare, set()).add(raw)
        return frozenset(
            line
            for line, (_, raw, bare) in mine.items()
            if raw != bare and any(r != raw for r in by_bare.get(bare, ()))
        )

    return typing_only(old_keys, new_keys), typing_only(new_keys, old_keys)
