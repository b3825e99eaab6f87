"""No ``pr_review`` module binds one top-level name twice.

A second ``_BINDINGS = {...}`` further down a long module silently replaces the first for every
function that reads it at call time: ruff's redefinition rule covers functions, classes and
imports, not assignments. The thirty-first session's bound-budget reader did this in
``evidence.grammars`` and took away how JavaScript functions written as values are named.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pr_review

SRC = Path(pr_review.__file__).resolve().parent


def top_level_names(tree: ast.Module) -> Counter[str]:
    """How often each name is bound by a top-level statement (an assignment, a function, a
    class); a name given a type first and a value later (``X: T`` then ``X = v``) counts once."""
    counts: Counter[str] = Counter()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            counts[node.name] += 1
        elif isinstance(node, ast.Assign):
            counts.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.AnnAssign) and node.value is not None
            and isinstance(node.target, ast.Name)
        ):  # fmt: skip
            counts[node.target.id] += 1
    return counts


def test_no_module_binds_a_top_level_name_twice() -> None:
    twice = {
        f"{path.relative_to(SRC.parent)}: {name}"
        for path in sorted(SRC.rglob("*.py"))
        for name, n in top_level_names(ast.parse(path.read_text(encoding="utf-8"))).items()
        if n > 1
    }
    assert not twice, sorted(twice)


def test_a_second_binding_is_found() -> None:
    tree = ast.parse("_B = {1: 2}\ndef f():\n    return _B\n_B = {}\nclass C: ...\nC = 1\n")
    counts = top_level_names(tree)
    assert counts["_B"] == 2
    assert counts["C"] == 2
    assert counts["f"] == 1
