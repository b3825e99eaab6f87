"""Escaping in HTML markup: an escape put around or taken from a value of existing markup is
red; markup rewritten with its escapes kept, new markup with its own escapes, regex groups and
unescapes are not."""

from __future__ import annotations

import pytest

from pr_review.evidence.markup_escaping import (
    FACTOR,
    MARKUP_ESCAPING_EXAMPLES,
    QUOTED_ESCAPING_EXAMPLES,
    QUOTED_FACTOR,
    is_escaping,
    markup_escaping_factors,
    quoted_escaping_factors,
)
from pr_review.schema.enums import FactorSeverity
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), MARKUP_ESCAPING_EXAMPLES,
    ids=range(len(MARKUP_ESCAPING_EXAMPLES)),
)  # fmt: skip
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    factors = markup_escaping_factors(
        [file_diff(path, head.splitlines(), base.splitlines())],
        MemoryTree({path: base}), MemoryTree({path: head}),
    )  # fmt: skip
    assert bool(factors) is changed, factors
    if changed:
        assert factors[0].factor == FACTOR
        assert factors[0].severity is FactorSeverity.RED


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), QUOTED_ESCAPING_EXAMPLES,
    ids=range(len(QUOTED_ESCAPING_EXAMPLES)),
)  # fmt: skip
def test_quoted_examples(path: str, base: str, head: str, changed: bool) -> None:
    factors = quoted_escaping_factors(
        [file_diff(path, head.splitlines(), base.splitlines())],
        MemoryTree({path: base}), MemoryTree({path: head}),
    )  # fmt: skip
    assert bool(factors) is changed, factors
    if changed:
        assert factors[0].factor == QUOTED_FACTOR
        assert "quotes of text the code builds" in factors[0].why


@pytest.mark.parametrize(
    ("name", "escaping"),
    [("escape", True), ("escapeHtml", True), ("escape_url", True), ("EscapeString", True),
     ("HTMLEscapeString", True), ("sanitize_url", True), ("encodeURIComponent", True),
     ("quote", True), ("unescape", False), ("unescapeAll", False), ("render", False),
     ("str", False)],
)  # fmt: skip
def test_escaping_is_known_by_the_callee_name(name: str, escaping: bool) -> None:
    assert is_escaping(name) is escaping


def test_an_escape_moved_to_another_file_is_no_change() -> None:
    body = "    return '<p>' + escape(text) + '</p>'\n"
    base = {"a.py": "def p(text):\n" + body, "b.py": "X = 1\n"}
    head = {"a.py": "X = 1\n", "b.py": "def p(text):\n" + body}
    factors = markup_escaping_factors(
        [file_diff("a.py", ["X = 1"], ["def p(text):", body.rstrip()]),
         file_diff("b.py", ["def p(text):", body.rstrip()], ["X = 1"])],
        MemoryTree(base), MemoryTree(head),
    )  # fmt: skip
    assert factors == []


def test_the_fix_is_red_in_the_pack_and_says_where() -> None:
    base, head, _ = MARKUP_ESCAPING_EXAMPLES[0][1], MARKUP_ESCAPING_EXAMPLES[0][2], None
    lane, factors = lane_and_factors(
        files=[file_diff("plugins/math.py", head.splitlines()[1:], base.splitlines()[1:], start=2)],
        base={"plugins/math.py": base}, head={"plugins/math.py": head},
    )  # fmt: skip
    assert lane.value == "red"
    why = factors[f"{FACTOR}:red"].why
    assert "an escaping call put around a value interpolated into HTML markup (line 2:" in why
    assert "0 escaping call(s) in 1 markup expression(s) before, 1 after" in why
