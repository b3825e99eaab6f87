"""Functions that check input for an attack marker (`..`, script URLs, prototype keys),
changed by a PR (any language)."""

from __future__ import annotations

from collections import Counter

import pytest

from pr_review.evidence.decisions import SourceDecisions
from pr_review.evidence.markers import (
    MARKER_EXAMPLES,
    MARKERS,
    Marker,
    marker_factors,
    marker_of,
)
from pr_review.evidence.scopes import find_scope, scope_tree
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileDiff, FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


def _diff(path: str, base: str, head: str) -> FileDiff:
    """One hunk from the first to the last line that differs."""
    old, new = base.splitlines(), head.splitlines()
    pairs = zip([*old, ""], [*new, ""], strict=False)
    first = next(i for i, (a, b) in enumerate(pairs) if a != b)
    last_old, last_new = len(old), len(new)
    while last_old > first and last_new > first and old[last_old - 1] == new[last_new - 1]:
        last_old, last_new = last_old - 1, last_new - 1
    return file_diff(path, new[first:last_new], old[first:last_old], start=first + 1)


@pytest.mark.parametrize(
    ("path", "base", "head", "factor"), MARKER_EXAMPLES, ids=range(len(MARKER_EXAMPLES))
)
def test_examples(path: str, base: str, head: str, factor: str | None) -> None:
    found = marker_factors(
        [_diff(path, base, head)], MemoryTree({path: base}), MemoryTree({path: head})
    )
    assert [f.factor for f in found] == ([factor] if factor else []), found


@pytest.mark.parametrize("marker", MARKERS, ids=lambda m: m.factor)
def test_each_marker_finds_its_conditions_and_only_those(marker: Marker) -> None:
    for condition in marker.matches:
        atom = f"check {condition}"
        assert marker_of(Counter({atom: 1}), [atom]) == marker, condition
        held_only = marker_of(Counter({atom: 1}), ["check other()"])
        assert held_only == (None if marker.own_check else marker), condition
    for condition in marker.misses:
        atom = f"check {condition}"
        assert marker_of(Counter({atom: 1}), [atom]) is None, condition
    assert marker_of(Counter({"call join": 1})) is None
    assert marker_of(None) is None


def test_a_new_escape_check_is_red_and_says_where_and_why() -> None:
    path, base, head, _ = MARKER_EXAMPLES[1]
    lane, factors = lane_and_factors(
        files=[_diff(path, base, head)], base={path: base}, head={path: head}
    )
    assert lane is Lane.RED
    why = factors["path-containment-changed:red"].why
    assert why.startswith("`copy_dir:copyDir` (line 2) tests paths for a parent-directory part")
    assert "check `strings.HasPrefix(rel,\"..\")` added" in why


def test_a_checking_function_moved_to_another_file_unchanged_is_no_change() -> None:
    body = "def safe(root, p):\n    if '..' in p.split('/'):\n        raise ValueError(p)\n"
    old_a, new_a = body + "def other():\n    return 1\n", "def other():\n    return 1\n"
    files = [
        file_diff("a.py", [], body.splitlines(), start=1),
        file_diff("b.py", body.splitlines(), [], start=1, status=FileStatus.ADDED),
    ]
    found = marker_factors(
        files, MemoryTree({"a.py": old_a}), MemoryTree({"a.py": new_a, "b.py": body})
    )
    assert found == []


def test_of_two_functions_of_one_name_the_changed_lines_own_is_read() -> None:
    source = (
        "class Flags:\n"
        "    @property\n"
        "    def path(self):\n"
        "        return self._path\n"
        "    @path.setter\n"
        "    def path(self, value):\n"
        "        self._path = value\n"
    )
    top = scope_tree("flags.py", source)
    assert top is not None
    getter = find_scope(top, ("flags", "Flags", "path"))
    setter = find_scope(top, ("flags", "Flags", "path"), line=7)
    assert getter is not None
    assert (getter.start, getter.end) == (2, 4)
    assert setter is not None
    assert (setter.start, setter.end) == (5, 7)
    assert find_scope(top, ("flags", "Flags", "path"), line=99) == getter
    head = source.replace(
        "        self._path = value\n",
        "        if '..' in value.split('/'):\n"
        "            raise ValueError(value)\n"
        "        self._path = value\n",
    )
    found = marker_factors(
        [_diff("flags.py", source, head)], MemoryTree({"flags.py": source}),
        MemoryTree({"flags.py": head}),
    )
    assert [f.factor for f in found] == ["path-containment-changed"]
    assert "`flags:Flags.path` (line 5)" in found[0].why


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("a.js", "function f(p) {\n  if (path.resolve(p).startsWith(root)) return 1\n}\n",
         [("path.resolve(p).startsWith(root)", "path.resolve(p)")]),
        ("a.ts", "function f(p: string) {\n  return p?.startsWith(root as string)\n}\n",
         [("p?.startsWith(root)", "p")]),
        ("a.go", ("package a\n\nfunc f(p string) bool {\n"
                  "\treturn strings.HasPrefix(filepath.Clean(p), root)\n}\n"),
         [("strings.HasPrefix(filepath.Clean(p),root)", "filepath.Clean(p)")]),
        ("a.py", "def f(p):\n    return os.path.realpath(p).startswith(root + os.sep)\n",
         [("os.path.realpath(p).startswith(root + os.sep)", "os.path.realpath(p)")]),
        ("A.java", "class A {\n  boolean f(String p) {\n    return p.startsWith(root);\n  }\n}\n",
         [("p.startsWith(root)", "p")]),
        ("a.js", "function f(p) {\n  return p.endsWith(root) || startsWith(p, root)\n}\n", []),
    ],
)
def test_a_prefix_test_is_read_with_the_string_it_examines_on_the_syntax_tree(
    path: str, source: str, expected: list[tuple[str, str]]
) -> None:
    sides = SourceDecisions(path, source)
    scope = (scope_tree(path, source) or [])[0]
    function = scope.children[0] if path.endswith(".java") else scope
    assert sides.prefix_tests_at(function) == expected
    checks = [a for a in sides.atoms_at(function) or () if a.startswith("check ")]
    assert all(any(code in check for check in checks) for code, _ in expected), checks


def test_module_imports_name_whole_modules_only() -> None:
    from pr_review.evidence import grammars

    js = (
        'var ZipEntry = require("./zipEntry"),\n    pth = require("path");\n'
        "import * as nodePath from 'node:path';\nimport up from \"upath\";\n"
        'import { resolve as res } from "path";\n'
    )
    tree = grammars.parse("a.js", js)
    assert tree is not None
    assert grammars.module_imports(tree) == {
        "ZipEntry": "./zipEntry", "pth": "path", "nodePath": "node:path", "up": "upath",
    }
    go = grammars.parse("a.go", 'package a\nimport (\n\tfp "path/filepath"\n\t"os"\n)\n')
    assert go is not None
    assert grammars.module_imports(go) == {"fp": "path/filepath", "os": "os"}


def test_resolved_path_reads_a_path_module_under_its_own_name() -> None:
    from pr_review.evidence.markers import RESOLVED_PATH, resolved_path

    pattern = resolved_path({"pth": "path", "fp": "path/filepath", "Q": "q"})
    assert pattern.search("pth.resolve(root, name)")
    assert pattern.search("fp.Clean(dest)")
    assert not pattern.search("Q.resolve(name)")
    assert not pattern.search("pth.join(root, name)")
    assert resolved_path({"path": "path"}) is RESOLVED_PATH


_PATHUTILS = (
    "import os\n\n\ndef is_safe_component(path):\n    if not path:\n        return False\n"
    "    if path in (os.curdir, os.pardir):\n        return False\n    return True\n\n\n"
    "def is_empty(path):\n    if not path:\n        return True\n    return False\n"
)
_WRITE_BASE = (
    "import os\nfrom radicale import pathutils\n\n\ndef remove(root, name):\n"
    "    os.remove(os.path.join(root, name))\n"
)


@pytest.mark.parametrize(
    ("guard", "factor"),
    [
        # Radicale's CVE-2015-8747: a helper of a module the PR does not touch, testing os.pardir
        ("pathutils.is_safe_component(name)", "path-containment-changed"),
        ("pathutils.is_empty(name)", None),  # the module's other helper tests no marker
    ],
)
def test_a_condition_calling_an_imported_helper_reads_the_helper(
    guard: str, factor: str | None
) -> None:
    head = _WRITE_BASE.replace(
        "    os.remove", f"    if not {guard}:\n        return\n    os.remove"
    )
    path = "radicale/storage.py"
    trees = [MemoryTree({path: src, "radicale/pathutils.py": _PATHUTILS})
             for src in (_WRITE_BASE, head)]  # fmt: skip
    found = marker_factors([_diff(path, _WRITE_BASE, head)], *trees)
    assert [f.factor for f in found] == ([factor] if factor else []), found
    if factor:
        assert "is_safe_component" in found[0].why


def test_python_import_files_resolve_absolute_relative_and_aliased_imports() -> None:
    import ast

    from pr_review.evidence.markers import python_import_files

    tree = ast.parse(
        "from radicale import pathutils\nfrom .util import check as c\nimport a.b as ab\n"
        "import os\n"
    )
    found = python_import_files("radicale/storage/multi.py", tree)
    assert "radicale/pathutils.py" in found["pathutils"]
    assert "src/radicale/pathutils/__init__.py" in found["pathutils"]
    assert "radicale/storage/util.py" in found["c"]  # the module `check` comes from
    assert found["ab"] == ("a/b.py", "a/b/__init__.py", "src/a/b.py", "src/a/b/__init__.py")
    assert "os" not in found  # a plain import binds the top package: not followed
