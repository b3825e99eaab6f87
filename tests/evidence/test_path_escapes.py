"""Path-containment calls in conditions a PR adds, removes or rewrites (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.path_escapes import (
    FACTOR,
    PATH_ESCAPE_EXAMPLES,
    checks,
    path_escape_factors,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), PATH_ESCAPE_EXAMPLES, ids=range(len(PATH_ESCAPE_EXAMPLES))
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = path_escape_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


def test_a_traversal_check_added_is_red_and_says_where() -> None:
    base = "def serve(root, name):\n    return open(join(root, name))\n"
    head = (
        "def serve(root, name):\n    if not safe(root, name) or os.path.isabs(name):\n"
        "        raise Forbidden(name)\n    return open(join(root, name))\n"
    )
    lane, factors = lane_and_factors(
        files=[file_diff("app/static.py", head.splitlines()[1:3], [], start=2)],
        base={"app/static.py": base},
        head={"app/static.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith("a check that a path stays inside its root added or rewritten (line 2:")
    assert "`if not safe(root, name) or os.path.isabs(name)`" in why


def test_a_check_moved_to_another_file_of_the_pr_is_no_change() -> None:
    check = "def safe(p):\n    if os.path.isabs(p):\n        raise ValueError(p)\n    return p\n"
    files = [
        file_diff("a.py", [], check.splitlines(), status=FileStatus.DELETED),
        file_diff("b.py", check.splitlines(), [], status=FileStatus.ADDED),
    ]
    base, head = MemoryTree({"a.py": check}), MemoryTree({"b.py": check})
    assert path_escape_factors(files, base, head) == []


def test_methods_count_and_unreadable_sources_give_none() -> None:
    found = checks("a.py", "def f(p):\n    if p.is_absolute():\n        raise E()\n")
    assert found is not None
    assert [c.line for c in found] == [2]
    assert checks("a.py", "def f(:\n") is None
    assert checks("notes.txt", "if x") is None
    assert checks("a.py", None) is None


def test_test_code_is_not_read() -> None:
    head = "def test_x():\n    if os.path.isabs(p):\n        raise AssertionError()\n"
    diff = file_diff("tests/test_paths.py", head.splitlines(), [], status=FileStatus.ADDED)
    found = path_escape_factors([diff], MemoryTree({}), MemoryTree({"tests/test_paths.py": head}))
    assert found == []


@pytest.mark.parametrize(
    ("pattern", "removes"),
    [
        (r"^(\.\.(\/|\\|$))+", True),  # adm-zip's GHSL-2020-198
        (r"\.\.[/\\]", True),
        (r"(\.\./)+", True),
        (r"\.\.", False),  # an ellipsis too
        (r"\.+$", False),  # trailing dots
        (r"[^a-z]", False),
        (r"[/\\]+", False),
        (r"(", False),  # does not parse
    ],
)
def test_a_pattern_removes_parent_parts_only_when_it_finds_nothing_in_plain_paths(
    pattern: str, removes: bool
) -> None:
    from pr_review.evidence.regex_trees import removes_parent_parts

    assert removes_parent_parts(pattern) is removes
