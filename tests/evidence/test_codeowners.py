"""CODEOWNERS parsing and GitHub matching semantics."""

from __future__ import annotations

import pytest

from pr_review.evidence.codeowners import owner_rules, parse_codeowners, read_codeowners
from pr_review.sources.model import MemoryTree

TEXT = """\
# comment
*       @everyone
*.js    @js-team
/build/logs/ @ops
docs/*  docs@example.com
apps/   @apps
/scripts/** @scripts
src/payments/ @payments-team  # inline comment
!negated @nobody
src/[ab].py @ranges
src/x.py not-an-owner
src/unowned.py
"""


@pytest.mark.parametrize(
    ("path", "owner"),
    [
        ("README.md", "@everyone"),
        ("web/app.js", "@js-team"),
        ("build/logs/x.txt", "@ops"),
        ("other/build/logs/x.txt", "@everyone"),
        ("docs/guide.md", "docs@example.com"),
        ("docs/deep/guide.md", "@everyone"),
        ("x/apps/y.py", "@apps"),
        ("scripts/a/b.sh", "@scripts"),
        ("src/payments/refunds.js", "@payments-team"),
    ],
)
def test_last_match_wins(path: str, owner: str) -> None:
    entry = parse_codeowners(TEXT).owner_of(path)
    assert entry is not None
    assert entry.owners == (owner,)


def test_invalid_lines_are_reported_and_skipped() -> None:
    parsed = parse_codeowners(TEXT, source=".github/CODEOWNERS")
    assert len(parsed.errors) == 3
    assert all(e.startswith(".github/CODEOWNERS:") for e in parsed.errors)
    assert ".github/CODEOWNERS:9:" in parsed.errors[0]


def test_pattern_without_owners_unowns() -> None:
    parsed = parse_codeowners(TEXT)
    assert owner_rules(parsed, ["src/unowned.py"]) == ()


def test_first_location_found_wins() -> None:
    tree = MemoryTree({"CODEOWNERS": "* @root", "docs/CODEOWNERS": "* @docs"})
    assert read_codeowners(tree).source == "CODEOWNERS"
    assert read_codeowners(MemoryTree()).entries == ()


def test_owner_rules_group_files() -> None:
    rules = owner_rules(parse_codeowners(TEXT), ["a.js", "b.js", "README.md"])
    assert [(r.path_pattern, r.files) for r in rules] == [
        ("*", ("README.md",)),
        ("*.js", ("a.js", "b.js")),
    ]
