"""Related tests: for each changed source file, the tests that cover it.

Three relations, strongest first:

- **name**: every test file of the head tree is indexed by the name of what it tests
  (``test_x.py``, ``x_test.py``, ``x.test.ts``, ``x.spec.js``, ``x_test.go``, ``XTest.java``,
  a file under ``__tests__``); a source file's candidates are the tests for its stem, nearest
  directory first. When there is none, the conventional location is reported with
  ``test_exists`` false.
- **import**: a test the PR touches that imports the source's module, or a package above it
  (``from flask import Flask`` tests ``src/flask/app.py``), read on its syntax tree (Python).
- **directory**: a test the PR touches in the directory that mirrors the source's
  (``tests/payments/test_fees.py`` for ``src/payments/refunds.py``), or in the same directory.

The last two only look at tests the PR touched: they answer "did this PR change tests of the
code it changed?" without claiming that any test anywhere covers a file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import Literal

from pr_review.evidence.pyast import parse_python
from pr_review.schema.pack import RelatedTest
from pr_review.sources.paths import GENERIC_ROOTS, TEST_DIRS, is_test

SOURCE_EXTENSIONS = frozenset(
    {
        ".py",
        ".ts",
        ".tsx",
        ".js",
        ".jsx",
        ".mjs",
        ".go",
        ".java",
        ".kt",
        ".rs",
        ".rb",
        ".cs",
        ".php",
        ".swift",
        ".scala",
    }
)
_SUBJECT = re.compile(
    r"^(?:test_(?P<a>.+)\.py|(?P<b>.+)_test\.(?:py|go|rb)|(?P<c>.+)\.(?:test|spec)\.[cm]?[jt]sx?"
    r"|(?P<d>.+?)Tests?\.(?:java|kt|cs)|(?P<e>.+)_spec\.rb)$"
)
MAX_PER_SOURCE = 3
MAX_TEST_SOURCE_CHARS = 2_000_000
"""Touched test files larger than this are related by name and directory only."""


def subject_of_test(path: str) -> str | None:
    """The stem a test file tests, or None when ``path`` is not a test file."""
    name = PurePosixPath(path).name
    match = _SUBJECT.match(name)
    if match:
        return next(g for g in match.groups() if g)
    if "__tests__" in PurePosixPath(path).parts:
        return name.split(".", 1)[0]
    return None


def related_tests(
    sources: Iterable[str],
    tree_paths: Iterable[str],
    touched: frozenset[str],
    touched_tests: Mapping[str, str] | None = None,
) -> tuple[RelatedTest, ...]:
    """Candidate tests of each source file (``sources`` are the PR's changed code files).

    ``touched_tests`` maps the test files the PR touched to their head text (for import
    relations); without it, touched tests are related by name and directory only.
    """
    tree = frozenset(tree_paths)
    index: dict[str, list[str]] = {}
    for path in tree:
        subject = subject_of_test(path)
        if subject is not None and is_test(path):
            index.setdefault(subject.lower(), []).append(path)
    texts = dict(touched_tests or {})
    changed_tests = sorted(t for t in touched if t in tree and is_test(t))
    imports = {t: python_imports(t, texts[t]) for t in changed_tests if t in texts}
    by_name: list[RelatedTest] = []
    by_touch: list[RelatedTest] = []
    for source in sources:
        pure = PurePosixPath(source)
        if pure.suffix not in SOURCE_EXTENSIONS or is_test(source) or pure.stem == "__init__":
            continue
        found = sorted(index.get(pure.stem.lower(), []), key=lambda t: (-_shared(source, t), t))
        if found:
            by_name += [
                RelatedTest(
                    source_file=source, test_file=t, test_exists=True, touched_in_pr=t in touched
                )
                for t in found[:MAX_PER_SOURCE]
            ]
        named = set(found[:MAX_PER_SOURCE])
        importable = import_names(source, tree)
        extra = [
            (t, how)
            for t in changed_tests
            if t not in named and (how := _touch_relation(source, t, imports.get(t), importable))
        ]
        extra.sort(key=lambda item: (item[1] != "directory", -_shared(source, item[0]), item[0]))
        by_touch += [
            RelatedTest(
                source_file=source,
                test_file=t,
                test_exists=True,
                touched_in_pr=True,
                matched_by=how,
            )
            for t, how in extra[:MAX_PER_SOURCE]
        ]
        if not found and not extra:
            by_name.append(
                RelatedTest(
                    source_file=source,
                    test_file=conventional_test(source),
                    test_exists=False,
                    touched_in_pr=False,
                )
            )
    # Name relations first: consumers that pair each test with one source (review units)
    # give a test to the source it is named after before any source that it merely imports.
    return (*by_name, *by_touch)


Relation = Literal["directory", "import"]


def _touch_relation(
    source: str, test: str, test_imports: frozenset[str] | None, importable: frozenset[str]
) -> Relation | None:
    """How a touched ``test`` relates to ``source`` ("directory", "import"), or None;
    ``importable`` is :func:`import_names` of the source."""
    if _mirrors(source, test):
        return "directory"
    if test_imports and not importable.isdisjoint(test_imports):
        return "import"
    return None


def import_names(path: str, tree: frozenset[str]) -> frozenset[str]:
    """The imports that reach a Python file: its :func:`module_names` and the packages above
    them (a package below a generic root such as ``src`` only); empty for other files."""
    if PurePosixPath(path).suffix != ".py":
        return frozenset()
    modules = module_names(path, tree)
    packages = {
        ".".join(parts[:i])
        for module in modules
        for parts in [module.split(".")]
        for i in range(1, len(parts))
        if parts[i - 1].lower() not in GENERIC_ROOTS
    }
    return modules | packages


def module_names(path: str, tree: frozenset[str]) -> frozenset[str]:
    """The dotted names a Python file can be imported by: its package chain
    (:func:`python_module`), and every tail of its path for namespace packages and
    ``sys.path`` layouts (``src/webhooks/signature.py`` -> ``src.webhooks.signature``,
    ``webhooks.signature``, ``signature``)."""
    pure = PurePosixPath(path)
    parts = [*pure.parent.parts, pure.stem] if pure.stem != "__init__" else [*pure.parent.parts]
    tails = {".".join(parts[i:]) for i in range(len(parts))}
    return frozenset({python_module(path, tree), *(t for t in tails if t)})


def _mirrors(source: str, test: str) -> bool:
    """Same directory, or the test directory mirrors the source's meaningful directories."""
    src_parent = PurePosixPath(source).parent
    test_parent = PurePosixPath(test).parent
    if src_parent == test_parent:
        return True
    src_dirs = _meaningful(src_parent.parts)
    test_dirs = _meaningful(test_parent.parts)
    return bool(src_dirs) and bool(test_dirs) and src_dirs[-len(test_dirs) :] == test_dirs


def _meaningful(parts: tuple[str, ...]) -> list[str]:
    return [p for p in parts if p.lower() not in GENERIC_ROOTS and p.lower() not in TEST_DIRS]


def python_module(path: str, tree: frozenset[str]) -> str:
    """The dotted module name of a Python file: its package chain (``__init__.py`` up the
    directories), ``src/flask/json/provider.py`` -> ``flask.json.provider``."""
    pure = PurePosixPath(path)
    parts = [pure.stem] if pure.stem != "__init__" else []
    parent = pure.parent
    while parent.parts and str(parent / "__init__.py") in tree:
        parts.insert(0, parent.name)
        parent = parent.parent
    if not parts:
        parts = [pure.parent.name or pure.stem]
    return ".".join(parts)


def python_imports(path: str, source: str) -> frozenset[str]:
    """Every module a Python file imports (``import a.b`` -> ``a.b``; ``from a import b``
    -> ``a`` and ``a.b``; relative imports resolved against the file's directory). Empty
    for non-Python files, sources that do not parse or are too large."""
    tree = parse_python(source, MAX_TEST_SOURCE_CHARS) if path.endswith(".py") else None
    if tree is None:
        return frozenset()
    here = list(PurePosixPath(path).parent.parts)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                base = ".".join([*anchor, *([base] if base else [])])
            if base:
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return frozenset(found)


def conventional_test(source: str) -> str:
    """Where a test for ``source`` would usually go in its language."""
    pure = PurePosixPath(source)
    stem, ext, parent = pure.stem, pure.suffix, pure.parent
    if ext == ".go":
        return str(parent / f"{stem}_test.go")
    if ext in {".ts", ".tsx", ".js", ".jsx", ".mjs"}:
        return str(parent / f"{stem}.test{ext}")
    if ext in {".java", ".kt"}:
        parts = list(pure.parts)
        if "main" in parts:
            parts[parts.index("main")] = "test"
            return str(PurePosixPath(*parts[:-1]) / f"{stem}Test{ext}")
        return str(parent / f"{stem}Test{ext}")
    rest = [p for p in parent.parts if p.lower() not in GENERIC_ROOTS]
    return (
        str(PurePosixPath("tests", *rest, f"test_{stem}.py"))
        if ext == ".py"
        else str(parent / f"{stem}_test{ext}")
    )


def _shared(source: str, test: str) -> int:
    src = {p for p in PurePosixPath(source).parts[:-1] if p.lower() not in GENERIC_ROOTS}
    return len(src.intersection(PurePosixPath(test).parts[:-1]))
