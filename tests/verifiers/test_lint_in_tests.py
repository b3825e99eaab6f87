"""Lint findings on test files: shell samples shellcheck cannot parse, oxlint rules that flag
what tests do on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.parsers import parse_shellcheck
from pr_review.verifiers.polyglot import oxlint_kept, shell_test_data


def _report(tmp_path: Path, *comments: tuple[str, int, str]) -> str:
    return json.dumps({"comments": [
        {"file": str(tmp_path / path), "line": 3, "endLine": 3, "level": level, "code": code,
         "message": "m"}
        for path, code, level in comments
    ]})  # fmt: skip


@pytest.mark.parametrize(
    ("comments", "data"),
    [
        # pygments's lexer sample (holdout51): a parse error in a test folder
        ((("tests/examplefiles/bash/doif.sh", 1089, "error"),
          ("tests/examplefiles/bash/doif.sh", 2211, "warning")),
         {"tests/examplefiles/bash/doif.sh"}),
        # a script outside tests that does not parse is a broken script
        ((("scripts/release.sh", 1089, "error"),), set()),
        # a test script that parses: its warnings are about code that runs
        ((("tests/run.sh", 2086, "warning"),), set()),
        # a parser warning, not an error, leaves the test script a script
        ((("tests/run.sh", 1129, "warning"),), set()),
    ],
)
def test_shell_test_data(
    tmp_path: Path, comments: tuple[tuple[str, int, str], ...], data: set[str]
) -> None:
    findings = parse_shellcheck(_report(tmp_path, *comments), tmp_path)
    assert shell_test_data(findings) == data


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        # form-data's sloppy-mode test naming itself (holdout51): strict, it would throw at once
        ("test/integration/test-form-get-length.js", False),
        ("lib/form_data.js", True),  # in code that runs, strict mode makes it a TypeError
    ],
)
def test_arguments_callee_in_tests_is_left_to_the_test_run(path: str, kept: bool) -> None:
    finding = RawFinding(path, 125, 125, "eslint/no-caller", "m", VerifierSeverity.ERROR)
    assert (oxlint_kept((finding,)) == (finding,)) is kept


@pytest.mark.parametrize(
    ("rule", "path", "kept"),
    [
        # fast-json-stringify's test schemas use JSON Schema's if/then/else (holdout69)
        ("unicorn/no-thenable", "test/if-then-else.test.js", False),
        ("unicorn/no-thenable", "src/promise-like.js", True),
        # its benchmark's worker thread answers through parentPort, which takes no origin
        ("unicorn/require-post-message-target-origin", "benchmark/bench-thread.js", False),
        ("unicorn/require-post-message-target-origin", "src/embed.js", True),
    ],
)
def test_thenables_and_worker_messages_in_tests_are_left_to_the_test_run(
    rule: str, path: str, kept: bool
) -> None:
    finding = RawFinding(path, 34, 34, rule, "m", VerifierSeverity.ERROR)
    assert (oxlint_kept((finding,)) == (finding,)) is kept
