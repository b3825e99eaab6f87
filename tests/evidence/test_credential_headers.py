"""Lists of header names holding a credential header, changed by a PR (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.credential_headers import (
    CREDENTIAL_HEADER_EXAMPLES,
    FACTOR,
    credential_header_factors,
    header_lists,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"),
    CREDENTIAL_HEADER_EXAMPLES,
    ids=range(len(CREDENTIAL_HEADER_EXAMPLES)),
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = credential_header_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


def test_a_cookie_header_added_to_the_redirect_strip_list_is_red_and_says_where() -> None:
    base = 'class Retry:\n    REMOVE_ON_REDIRECT = frozenset(["Authorization"])\n'
    head = 'class Retry:\n    REMOVE_ON_REDIRECT = frozenset(["Cookie", "Authorization"])\n'
    lane, factors = lane_and_factors(
        files=[file_diff("src/retry.py", head.splitlines()[1:], base.splitlines()[1:], start=2)],
        base={"src/retry.py": base},
        head={"src/retry.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith("credential header `Cookie` added to a list of header names (line 2")


def test_a_list_moved_to_another_file_of_the_pr_is_no_change() -> None:
    listed = "export const STRIP = ['authorization', 'cookie']\n"
    files = [
        file_diff("src/redirect.ts", [], listed.splitlines()),
        file_diff("src/headers.ts", listed.splitlines(), [], status=FileStatus.ADDED),
    ]
    found = credential_header_factors(
        files,
        MemoryTree({"src/redirect.ts": listed}),
        MemoryTree({"src/redirect.ts": "export {}\n", "src/headers.ts": listed}),
    )
    assert found == []


def test_test_code_is_not_read() -> None:
    base = "const h = ['cookie']\n"
    diff = file_diff("test/redirect.test.js", [], base.splitlines())
    found = credential_header_factors(
        [diff], MemoryTree({"test/redirect.test.js": base}),
        MemoryTree({"test/redirect.test.js": ""}),
    )
    assert found == []


def test_unreadable_sources_give_none() -> None:
    assert header_lists("a.py", "def (:\n") is None
    assert header_lists("notes.txt", "['cookie']") is None
    assert header_lists("a.go", 'package p\nvar h = []string{"Cookie", "Accept"}\n') is not None
