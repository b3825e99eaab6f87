"""A lint finding the author waived for Biome, for the same rule, on the line before."""

from __future__ import annotations

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.outcome import _kebab, _waived_for_biome
from pr_review.verifiers.stage import Materialized

# node-mysql2 (held out on holdout34): a debug tool's breakpoint and a test's global Date
TOOL = (
    "    // \"billing_is_pickup_location\": LONGLONG",
    "    // biome-ignore lint/suspicious/noDebugger: intentional breakpoint in this debug tool",
    "    debugger;",
    "    debugger;",
)
TEST = (
    "  // biome-ignore lint/suspicious/noGlobalAssign: replacing global Date for testing",
    "  Date = (function () {",
)


def _hit(path: str, line: int, rule: str) -> RawFinding:
    return RawFinding(path, line, None, rule, "m", VerifierSeverity.ERROR)


def _staged() -> Materialized:
    return Materialized(
        head_files=(), base_files=(),
        head_lines={"tools/parse-row.js": TOOL, "test/date.test.mts": TEST}, base_lines={},
        checkout_ready=False,
    )  # fmt: skip


def test_biome_names_are_eslint_names_in_camel_case() -> None:
    assert _kebab("noGlobalAssign") == "no-global-assign"
    assert _kebab("noDebugger") == "no-debugger"
    assert _kebab("useIsNan") == "use-is-nan"


def test_a_waiver_for_the_same_rule_on_the_line_before_leaves_the_finding_out() -> None:
    found = (
        _hit("tools/parse-row.js", 3, "eslint/no-debugger"),  # waived on line 2
        _hit("tools/parse-row.js", 4, "eslint/no-debugger"),  # two lines below: not waived
        _hit("test/date.test.mts", 2, "eslint/no-global-assign"),
        _hit("test/date.test.mts", 2, "eslint/no-func-assign"),  # another rule: kept
    )
    kept, waived = _waived_for_biome("oxlint", found, _staged())
    assert [(f.path, f.line, f.rule_id) for f in kept] == [
        ("tools/parse-row.js", 4, "eslint/no-debugger"),
        ("test/date.test.mts", 2, "eslint/no-func-assign"),
    ]
    assert waived == 2


def test_security_tools_and_secrets_keep_theirs() -> None:
    found = (_hit("tools/parse-row.js", 3, "no-debugger"),)
    assert _waived_for_biome("sinks", found, _staged()) == (found, 0)
    assert _waived_for_biome("secrets", found, _staged()) == (found, 0)
