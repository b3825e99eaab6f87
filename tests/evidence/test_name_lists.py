"""Lists of names deciding a security question (credential headers, link attributes),
changed by a PR (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.name_lists import (
    CREDENTIAL_HEADERS,
    LINK_ATTRIBUTES,
    NAME_LIST_EXAMPLES,
    name_list_factors,
    name_lists,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "factor"),
    NAME_LIST_EXAMPLES,
    ids=range(len(NAME_LIST_EXAMPLES)),
)
def test_examples(path: str, base: str, head: str, factor: str | None) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = name_list_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert [f.factor for f in found] == ([factor] if factor else []), found


def test_a_cookie_header_added_to_the_redirect_strip_list_is_red_and_says_where() -> None:
    base = 'class Retry:\n    REMOVE_ON_REDIRECT = frozenset(["Authorization"])\n'
    head = 'class Retry:\n    REMOVE_ON_REDIRECT = frozenset(["Cookie", "Authorization"])\n'
    lane, factors = lane_and_factors(
        files=[file_diff("src/retry.py", head.splitlines()[1:], base.splitlines()[1:], start=2)],
        base={"src/retry.py": base},
        head={"src/retry.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{CREDENTIAL_HEADERS.factor}:red"].why
    assert why.startswith("credential header `Cookie` added to a list of header names (line 2")


def test_a_list_moved_to_another_file_of_the_pr_is_no_change() -> None:
    listed = "export const STRIP = ['authorization', 'cookie']\n"
    files = [
        file_diff("src/redirect.ts", [], listed.splitlines()),
        file_diff("src/headers.ts", listed.splitlines(), [], status=FileStatus.ADDED),
    ]
    found = name_list_factors(
        files,
        MemoryTree({"src/redirect.ts": listed}),
        MemoryTree({"src/redirect.ts": "export {}\n", "src/headers.ts": listed}),
    )
    assert found == []


def test_test_code_is_not_read() -> None:
    base = "const h = ['cookie']\n"
    diff = file_diff("test/redirect.test.js", [], base.splitlines())
    found = name_list_factors(
        [diff], MemoryTree({"test/redirect.test.js": base}),
        MemoryTree({"test/redirect.test.js": ""}),
    )
    assert found == []


def test_a_link_attribute_added_to_a_cleaners_list_is_red_and_says_why() -> None:
    base = "link_attrs = frozenset([\n    'action', 'href', 'src',\n    'formaction',\n])\n"
    head = base.replace("'formaction',\n", "'formaction',\n    'xlink:href',\n")
    lane, factors = lane_and_factors(
        files=[file_diff("src/lxml/html/defs.py", ["    'xlink:href',"], [], start=5)],
        base={"src/lxml/html/defs.py": base},
        head={"src/lxml/html/defs.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{LINK_ATTRIBUTES.factor}:red"].why
    assert why.startswith("link attribute `xlink:href` added to a list of attribute names (line 1")
    assert "checked for script URLs" in why


def test_each_rule_gives_its_own_factor() -> None:
    base = "H = ['Authorization']\nL = ['href', 'src', 'cite']\n"
    head = "H = ['Authorization', 'Cookie']\nL = ['href', 'src', 'cite', 'poster']\n"
    diff = file_diff("a.py", head.splitlines(), base.splitlines())
    found = name_list_factors([diff], MemoryTree({"a.py": base}), MemoryTree({"a.py": head}))
    assert [f.factor for f in found] == [CREDENTIAL_HEADERS.factor, LINK_ATTRIBUTES.factor]


def test_unreadable_sources_give_none() -> None:
    assert name_lists("a.py", "def (:\n") is None
    assert name_lists("notes.txt", "['cookie']") is None
    assert name_lists("a.go", 'package p\nvar h = []string{"Cookie", "Accept"}\n') is not None
