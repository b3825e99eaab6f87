"""Checks refusing CR/LF in a value, added or removed by a PR (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.line_breaks import (
    FACTOR,
    LINE_BREAK_EXAMPLES,
    STRIP_EXAMPLES,
    checks,
    line_break_factors,
)
from pr_review.schema.enums import Lane
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"),
    LINE_BREAK_EXAMPLES + STRIP_EXAMPLES,
    ids=[f"check-{i}" for i in range(len(LINE_BREAK_EXAMPLES))]
    + [f"strip-{i}" for i in range(len(STRIP_EXAMPLES))],
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = line_break_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert bool(found) is changed, found


def test_a_header_value_check_added_is_red_and_says_where() -> None:
    base = "class Response:\n    def set(self, value):\n        self.v = value\n"
    head = (
        "class Response:\n    def set(self, value):\n"
        "        if '\\n' in value or '\\r' in value:\n"
        "            raise ValueError('Header value may not contain control characters')\n"
        "        self.v = value\n"
    )
    lane, factors = lane_and_factors(
        files=[file_diff("src/response.py", head.splitlines()[2:4], [], start=3)],
        base={"src/response.py": base},
        head={"src/response.py": head},
    )
    assert lane is Lane.RED
    why = factors[f"{FACTOR}:red"].why
    assert why.startswith("a check refusing a value that holds a line break added (line 3:")


def test_bytes_literals_count_and_unreadable_sources_give_none() -> None:
    source = "def f(line):\n    if b'\\r' in line:\n        raise ParsingError('bare CR')\n"
    found = checks("parser.py", source)
    assert found is not None
    assert [c.line for c in found] == [2]
    assert checks("a.py", "def (:\n") is None
    assert checks("notes.txt", "if '\\n' in v: raise") is None


def test_test_code_is_not_read() -> None:
    head = "def f(v):\n    if '\\n' in v:\n        raise ValueError(v)\n"
    diff = file_diff("tests/test_headers.py", head.splitlines(), [])
    path = "tests/test_headers.py"
    found = line_break_factors([diff], MemoryTree({path: ""}), MemoryTree({path: head}))
    assert found == []


def test_a_stripping_replacement_says_what_it_is() -> None:
    path = "lib/smtp-connection/index.js"
    base = "this.name = this.options.name || this._getHostname();\n"
    head = "this.name = (this.options.name || h()).toString().replace(/[\\r\\n]+/g, '');\n"
    found = line_break_factors(
        [file_diff(path, head.splitlines(), base.splitlines())],
        MemoryTree({path: base}),
        MemoryTree({path: head}),
    )
    assert [f.factor for f in found] == [FACTOR]
    assert "a replacement taking line breaks out of a value added (line 1" in found[0].why
    assert "replace(/[\\r\\n]+/g, '')" in found[0].why

