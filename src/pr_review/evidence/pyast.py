"""Python behaviour equality on syntax trees (standard ``ast``; no third-party parser).

Two Python sources behave the same when their trees are equal once docstrings are dropped:
comments, blank lines, line wrapping, quoting style and docstring wording then cannot
matter. Attributes (line and column numbers) are left out of the comparison.
"""

from __future__ import annotations

import ast
import warnings

MAX_SOURCE_CHARS = 1_000_000
"""Larger sources are not parsed (the lexical analysis still runs on their changed lines)."""

_DOC_OWNERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with every module, class and function docstring removed (in place)."""
    for node in ast.walk(tree):
        if isinstance(node, _DOC_OWNERS) and node.body and _is_docstring(node.body[0]):
            node.body = node.body[1:] or [ast.Pass()]
    return tree


def behaviour_key(source: str) -> str | None:
    """A canonical dump of ``source``'s tree without docstrings, or None when it does not
    parse (or is too large to parse within budget)."""
    if len(source) > MAX_SOURCE_CHARS:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in the PR's code are its business
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ast.dump(_without_docstrings(tree), annotate_fields=False, include_attributes=False)


def same_behaviour(old: str, new: str) -> bool:
    """True when both sources parse and differ only in comments, layout and docstrings."""
    if old == new:
        return True
    old_key = behaviour_key(old)
    return old_key is not None and old_key == behaviour_key(new)
