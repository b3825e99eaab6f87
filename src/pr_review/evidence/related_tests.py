"""Related tests: for each changed source file, the tests that cover it.

Every test file of the head tree is indexed by the name of what it tests (``test_x.py``,
``x_test.py``, ``x.test.ts``, ``x.spec.js``, ``x_test.go``, ``XTest.java``, a file under
``__tests__``); a source file's candidates are the tests for its stem, nearest directory
first. When there is none, the conventional location is reported with ``test_exists`` false.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from pr_review.evidence.paths import GENERIC_ROOTS, is_test
from pr_review.schema.pack import RelatedTest

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
    sources: Iterable[str], tree_paths: Iterable[str], touched: frozenset[str]
) -> tuple[RelatedTest, ...]:
    """Candidate tests of each source file (``sources`` are the PR's changed code files)."""
    index: dict[str, list[str]] = {}
    for path in tree_paths:
        subject = subject_of_test(path)
        if subject is not None and is_test(path):
            index.setdefault(subject.lower(), []).append(path)
    out: list[RelatedTest] = []
    for source in sources:
        pure = PurePosixPath(source)
        if pure.suffix not in SOURCE_EXTENSIONS or is_test(source) or pure.stem == "__init__":
            continue
        found = sorted(index.get(pure.stem.lower(), []), key=lambda t: (-_shared(source, t), t))
        if found:
            out += [
                RelatedTest(
                    source_file=source, test_file=t, test_exists=True, touched_in_pr=t in touched
                )
                for t in found[:MAX_PER_SOURCE]
            ]
        else:
            out.append(
                RelatedTest(
                    source_file=source,
                    test_file=conventional_test(source),
                    test_exists=False,
                    touched_in_pr=False,
                )
            )
    return tuple(out)


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
