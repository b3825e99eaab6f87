"""Thrown-away expressions where an exception is expected (``with pytest.raises``)."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.expected_raises import (
    EXPECTED_RAISE_EXAMPLES,
    expecting_lines,
    without_expected_raises,
)
from pr_review.verifiers.model import RawFinding


@pytest.mark.parametrize(("source", "line", "expected"), EXPECTED_RAISE_EXAMPLES)
def test_examples(source: str, line: int, expected: bool) -> None:
    assert (line in expecting_lines(source)) is expected


def test_a_file_that_does_not_parse_expects_nothing() -> None:
    assert expecting_lines("def f(:\n    with pytest.raises(E):\n        x.y\n") == frozenset()


def _hit(path: str, line: int, rule: str) -> RawFinding:
    return RawFinding(path=path, line=line, end_line=None, rule_id=rule, message="m",
                      severity=VerifierSeverity.WARNING)  # fmt: skip


def test_only_the_thrown_away_rules_on_expected_lines_are_dropped() -> None:
    source = "def test(s):\n    with pytest.raises(KeyError):\n        s.x\n        s[1] == 2\n"
    files = {"tests/test_a.py": source}
    findings = [_hit("tests/test_a.py", 3, "B018"), _hit("tests/test_a.py", 4, "B015"),
                _hit("tests/test_a.py", 3, "F821"), _hit("src/gone.py", 3, "B018")]  # fmt: skip
    kept = without_expected_raises(findings, files.get)
    assert [(f.path, f.rule_id) for f in kept] == [("tests/test_a.py", "F821"),
                                                   ("src/gone.py", "B018")]  # fmt: skip
