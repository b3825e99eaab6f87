"""Comparisons of two URLs' origins a PR adds, removes or rewrites (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.origin_checks import (
    FACTOR,
    ORIGIN_CHECK_EXAMPLES,
    checks,
    origin_check_factors,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"),
    ORIGIN_CHECK_EXAMPLES,
    ids=range(len(ORIGIN_CHECK_EXAMPLES)),
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = origin_check_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


def test_an_origin_comparison_added_is_red_and_says_where() -> None:
    base = "def strip(old, new):\n    return False\n"
    head = "def strip(old, new):\n    return old.scheme != new.scheme\n"
    lane, factors = lane_and_factors(
        files=[file_diff("client/redirects.py", [head.splitlines()[1]], [], start=2)],
        base={"client/redirects.py": base},
        head={"client/redirects.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith("a comparison of two URLs' origins added or rewritten (line 2:")
    assert "`old.scheme != new.scheme`" in why


def test_chained_and_call_comparisons_are_read_in_python() -> None:
    source = (
        "def same(a, b):\n    return a.netloc == b.netloc == c.netloc\n"
        "def port(a, b):\n    return a.port() != b.port()\n"
        "def kind(a, b):\n    return a.scheme < b.scheme\n"
    )
    found = checks("u.py", source)
    assert found is not None
    assert [c.code for c in found] == [
        "a.netloc == b.netloc", "b.netloc == c.netloc", "a.port() != b.port()"
    ]


def test_a_comparison_moved_to_another_file_of_the_pr_is_no_change() -> None:
    check = "function same(a, b) {\n  return a.origin === b.origin\n}\n"
    files = [
        file_diff("lib/a.js", [], check.splitlines(), status=FileStatus.DELETED),
        file_diff("lib/b.js", check.splitlines(), [], status=FileStatus.ADDED),
    ]
    base, head = MemoryTree({"lib/a.js": check}), MemoryTree({"lib/b.js": check})
    assert origin_check_factors(files, base, head) == []


def test_unreadable_sources_and_test_code_give_nothing() -> None:
    assert checks("a.py", "def f(:\n") is None
    assert checks("notes.txt", "a.host == b.host") is None
    assert checks("a.py", None) is None
    head = "def test_same(a, b):\n    assert a.host == b.host\n"
    diff = file_diff("tests/test_urls.py", head.splitlines(), [], status=FileStatus.ADDED)
    found = origin_check_factors([diff], MemoryTree({}), MemoryTree({"tests/test_urls.py": head}))
    assert found == []
