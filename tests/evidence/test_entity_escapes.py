"""HTML character references written in code, counted on both sides of a PR (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.entity_escapes import (
    ENTITY_EXAMPLES,
    FACTOR,
    entity_escaping_factors,
    reference_of,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), ENTITY_EXAMPLES, ids=range(len(ENTITY_EXAMPLES))
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = entity_escaping_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


@pytest.mark.parametrize(
    ("value", "character"),
    [("&lt;", "<"), ("&#x27;", "'"), ("&#39;", "'"), ("&#X3d;", "="), ("&apos;", "'"),
     ("&#92;", "\\"), ("&nbsp;", None), ("&hellip;", None), ("&#8220;", None),
     ("&lt;b&gt;", None), ("x&lt;", None)],
)  # fmt: skip
def test_only_a_whole_reference_to_a_markup_character_counts(
    value: str, character: str | None
) -> None:
    found = reference_of(1, value)
    assert (found.character if found else None) == character


def test_an_escape_added_to_a_table_is_red_and_says_which_character() -> None:
    base = "const escape = {\n  '<': '&lt;',\n};\n"
    head = "const escape = {\n  '<': '&lt;',\n  '=': '&#x3D;',\n};\n"
    lane, factors = lane_and_factors(
        files=[file_diff("lib/utils.js", ["  '=': '&#x3D;',"], [], start=3)],
        base={"lib/utils.js": base},
        head={"lib/utils.js": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith("an HTML character reference for `=` added (line 3: `'&#x3D;'`")


def test_a_table_moved_to_another_file_of_the_pr_is_no_change() -> None:
    table = "export const ESCAPES = { '<': '&lt;', '&': '&amp;' }\n"
    files = [
        file_diff("src/render.ts", [], table.splitlines()),
        file_diff("src/escapes.ts", table.splitlines(), [], status=FileStatus.ADDED),
    ]
    found = entity_escaping_factors(
        files,
        MemoryTree({"src/render.ts": table}),
        MemoryTree({"src/render.ts": "export {}\n", "src/escapes.ts": table}),
    )
    assert found == []


def test_test_code_is_not_read() -> None:
    head = "expect(escape('<')).toBe('&lt;')\n"
    diff = file_diff("test/escape.test.js", head.splitlines(), [], status=FileStatus.ADDED)
    assert (
        entity_escaping_factors([diff], MemoryTree({}), MemoryTree({"test/escape.test.js": head}))
        == []
    )
