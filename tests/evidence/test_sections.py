"""Authorship, linked issues, related tests, instructions, artifacts, oversize, hotspots."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pr_review.config import Config, parse_config
from pr_review.evidence.authorship import authorship
from pr_review.evidence.build import build_pack
from pr_review.evidence.instructions import repo_instructions
from pr_review.evidence.issues import linked_issues
from pr_review.evidence.related_tests import related_tests
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import Commit, IssueDetails, MemoryTree
from tests.evidence.helpers import file_diff, pull_request


def _commit(message: str, name: str = "Dev", email: str = "dev@x.io", **kw: object) -> Commit:
    return Commit(sha="c" * 40, author_name=name, author_email=email, message=message, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("fix\n\nCo-Authored-By: GitHub Copilot <copilot@github.com>", "GitHub Copilot"),
        ("fix\n\nCo-authored-by: Claude <noreply@anthropic.com>", "Claude"),
        ("feat: x\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)", "Claude"),
        ("x\n\nCo-authored-by: aider (gpt-4) <noreply@aider.chat>", "Aider"),
    ],
)
def test_ai_trailers_and_footers_are_detected(message: str, tool: str) -> None:
    result = authorship((_commit(message), _commit("human commit")))
    assert result.ai_assisted
    assert result.ai_tools == (tool,)
    assert result.ai_commit_ratio == 0.5
    assert result.total_commits == 2


@pytest.mark.parametrize(
    "who",
    [
        "Claudette Smith <claudette@smith.org>",
        "Cody Jones <cody@jones.dev>",
        "Aiden Cursorson <aiden@cursorson.net>",
        "Devin Miller <devin@miller.io>",
    ],
)
def test_human_names_containing_tool_names_are_not_ai(who: str) -> None:
    name, email = who.split(" <")
    commit = _commit(f"fix\n\nCo-authored-by: {who}", name=name, email=email.rstrip(">"))
    assert not authorship((commit,)).ai_assisted


def test_commits_without_trailers_and_bot_authors() -> None:
    assert authorship((_commit("plain message, no trailers"),)).ai_assisted is False
    bot = _commit(
        "x", name="copilot-swe-agent[bot]", email="198982749+Copilot@users.noreply.github.com"
    )
    assert authorship((bot,)).ai_tools == ("GitHub Copilot",)
    assert authorship(()).ai_commit_ratio == 0.0


def test_linked_issues_forms() -> None:
    body = (
        "Fixes #12. See #7, other/repo#3 and https://github.com/o/r/issues/44.\n"
        "Also #12 again; not an anchor like page#section or color #fff."
    )
    issues = linked_issues(
        body,
        repository="o/r",
        details=[IssueDetails(number=12, title="Bug", body="b", repository=None)],
    )
    got = {(i.repository, i.number, i.closing) for i in issues}
    assert got == {(None, 12, True), (None, 7, False), ("other/repo", 3, False), (None, 44, False)}
    assert next(i for i in issues if i.number == 12).title == "Bug"


def test_related_tests_layouts() -> None:
    tree = [
        "tests/payments/test_refunds.py",
        "src/payments/refunds.py",
        "web/src/api/client.ts",
        "web/src/api/client.test.ts",
        "svc/store.go",
        "svc/store_test.go",
        "app/src/main/java/a/Pay.java",
        "app/src/test/java/a/PayTest.java",
        "ui/__tests__/Button.tsx",
        "ui/Button.tsx",
    ]
    sources = [
        "src/payments/refunds.py",
        "web/src/api/client.ts",
        "svc/store.go",
        "app/src/main/java/a/Pay.java",
        "ui/Button.tsx",
        "src/payments/fees.py",
    ]
    found = related_tests(sources, tree, frozenset({"svc/store_test.go"}))
    by_source = {t.source_file: t for t in found}
    assert by_source["src/payments/refunds.py"].test_file == "tests/payments/test_refunds.py"
    assert by_source["web/src/api/client.ts"].test_file == "web/src/api/client.test.ts"
    assert by_source["svc/store.go"].touched_in_pr
    assert by_source["app/src/main/java/a/Pay.java"].test_file == "app/src/test/java/a/PayTest.java"
    assert by_source["ui/Button.tsx"].test_file == "ui/__tests__/Button.tsx"
    missing = by_source["src/payments/fees.py"]
    assert (missing.test_exists, missing.test_file) == (False, "tests/payments/test_fees.py")


def test_a_touched_test_that_imports_the_package_relates_to_its_modules() -> None:
    """A real layout: one big test module for the whole package (`tests/test_basic.py`)."""
    tree = [
        "src/flask/__init__.py",
        "src/flask/sessions.py",
        "src/flask/json/__init__.py",
        "src/flask/json/provider.py",
        "tests/test_basic.py",
        "tests/test_json.py",
        "setup.py",
    ]
    touched = frozenset(
        {
            "src/flask/sessions.py",
            "src/flask/json/provider.py",
            "tests/test_basic.py",
            "tests/test_json.py",
        }
    )
    texts = {
        "tests/test_basic.py": "import flask\nfrom flask.sessions import SessionMixin\n",
        "tests/test_json.py": "import pytest\n\n# import flask.json would be a comment\n",
    }
    found = related_tests(
        ["src/flask/sessions.py", "src/flask/json/provider.py"], tree, touched, texts
    )
    pairs = {(t.source_file, t.test_file, t.matched_by) for t in found if t.touched_in_pr}
    assert ("src/flask/sessions.py", "tests/test_basic.py", "import") in pairs
    assert ("src/flask/json/provider.py", "tests/test_basic.py", "import") in pairs
    # a module name in a comment is not an import
    assert not any(t.test_file == "tests/test_json.py" for t in found)


def test_relative_imports_and_mirrored_directories_relate_touched_tests() -> None:
    tree = [
        "pkg/__init__.py",
        "pkg/billing/__init__.py",
        "pkg/billing/fees.py",
        "pkg/billing/tests/__init__.py",
        "pkg/billing/tests/test_invoices.py",
        "services/payments/refunds.py",
        "tests/payments/test_ledger.py",
        "tests/other/test_unrelated.py",
    ]
    touched = frozenset(
        {
            "pkg/billing/fees.py",
            "pkg/billing/tests/test_invoices.py",
            "services/payments/refunds.py",
            "tests/payments/test_ledger.py",
            "tests/other/test_unrelated.py",
        }
    )
    texts = {
        "pkg/billing/tests/test_invoices.py": "from .. import fees\n",
        "tests/payments/test_ledger.py": "def test_x():\n    assert True\n",
        "tests/other/test_unrelated.py": "import json\n",
    }
    found = related_tests(
        ["pkg/billing/fees.py", "services/payments/refunds.py"], tree, touched, texts
    )
    how = {(t.source_file, t.test_file): t.matched_by for t in found}
    assert how[("pkg/billing/fees.py", "pkg/billing/tests/test_invoices.py")] == "directory"
    assert how[("services/payments/refunds.py", "tests/payments/test_ledger.py")] == "directory"
    assert not any(t.test_file == "tests/other/test_unrelated.py" for t in found)


def test_namespace_layouts_relate_by_full_import_but_not_by_a_shared_generic_root() -> None:
    tree = ["src/webhooks/signature.py", "src/db/queries.py", "tests/test_webhooks.py"]
    touched = frozenset(tree)
    texts = {"tests/test_webhooks.py": "from src.webhooks.signature import verify\n"}
    found = related_tests(["src/webhooks/signature.py", "src/db/queries.py"], tree, touched, texts)
    related = {(t.source_file, t.matched_by) for t in found if t.touched_in_pr}
    assert related == {("src/webhooks/signature.py", "import")}


def test_python_imports_resolve_relative_and_ignore_broken_sources() -> None:
    from pr_review.evidence.related_tests import module_names, python_imports, python_module

    got = python_imports("a/b/tests/test_x.py", "from ..core import thing\nimport os.path\n")
    assert got == {"a.b.core", "a.b.core.thing", "os.path"}
    assert python_imports("t/test_x.py", "def broken(:\n") == frozenset()
    assert python_imports("t/x.test.js", "import x from './x'") == frozenset()
    assert module_names("src/webhooks/signature.py", frozenset()) == {
        "src.webhooks.signature",
        "webhooks.signature",
        "signature",
    }
    tree = frozenset({"src/flask/__init__.py", "src/flask/json/__init__.py"})
    assert python_module("src/flask/json/provider.py", tree) == "flask.json.provider"
    assert python_module("setup.py", tree) == "setup"


def test_tests_missing_is_not_claimed_when_the_pr_changed_a_test_of_its_code() -> None:
    """Yellow lane: intent and tests are required; a test named otherwise still counts."""
    files = [
        file_diff("src/shop/orders.py", ["def total(x):", "    return x + 1"]),
        file_diff(
            "tests/test_api.py",
            ["from shop.orders import total", "def test_total():", "    assert total(1) == 2"],
        ),
    ]
    head = {
        "src/shop/__init__.py": "",
        "src/shop/orders.py": "def total(x):\n    return x + 1\n",
        "tests/test_api.py": "from shop.orders import total\ndef test_total():\n"
        "    assert total(1) == 2\n",
    }
    pack = build_pack(
        pull_request(files, head=head, body="Fix the order total so refunds balance again."),
        Config(),
    )
    assert pack.risk.lane is not Lane.GREEN
    assert not any("test" in m.artifact for m in pack.missing_artifacts)
    rel = [t for t in pack.context.related_tests if t.test_file == "tests/test_api.py"]
    assert [t.matched_by for t in rel] == ["import"]

    untested = build_pack(
        pull_request(files[:1], head=head, body="Fix the order total so refunds balance again."),
        Config(),
    )
    assert any("test" in m.artifact for m in untested.missing_artifacts)


def test_instructions_are_concatenated_with_headers_and_capped() -> None:
    tree = MemoryTree(
        {
            "CONTRIBUTING.md": "Be nice.",
            "AGENTS.md": "Run make test.",
            ".pr-review/config.yml": "risk: {}\n",
        }
    )
    text = repo_instructions(tree, max_chars=10_000)
    assert text is not None
    assert "## CONTRIBUTING.md\n\nBe nice." in text
    assert "## AGENTS.md" in text
    assert "## .pr-review/config.yml" in text
    capped = repo_instructions(tree, max_chars=20)
    assert capped is not None
    assert "truncated" in capped
    assert repo_instructions(MemoryTree(), max_chars=100) is None


def test_missing_artifacts_follow_the_lane() -> None:
    migration = file_diff(
        "db/migrations/002.sql", ["ALTER TABLE t DROP COLUMN legacy;"], status=FileStatus.ADDED
    )
    pack = build_pack(pull_request([migration], body=""), Config())
    assert pack.risk.lane is Lane.RED
    names = {a.artifact for a in pack.missing_artifacts}
    assert "PR description or linked issue" in names
    assert "migration and rollback notes" in names
    assert all(a.why_required and a.suggested_location for a in pack.missing_artifacts)
    docs = build_pack(pull_request([file_diff("docs/a.md", ["x"])], body=""), Config())
    assert [(a.artifact, a.required) for a in docs.missing_artifacts] == [
        ("PR description or linked issue", False)
    ]


def test_changelog_is_expected_only_when_the_repo_keeps_one() -> None:
    change = [file_diff("src/a/x.py", ["y = 2"], ["y = 1"])]
    without = build_pack(pull_request(change), Config())
    assert "changelog entry" not in {a.artifact for a in without.missing_artifacts}
    kept = build_pack(pull_request(change, base={"CHANGELOG.md": "# Changes"}), Config())
    assert "changelog entry" in {a.artifact for a in kept.missing_artifacts}


def test_oversize_blocks_and_splits_by_subsystem() -> None:
    config = parse_config("oversize:\n  max_changed_lines: 10\n", source="c.yml")
    files = [
        file_diff(f"src/{name}/x.py", [f"a{i} = {i}" for i in range(8)], status=FileStatus.ADDED)
        for name in ("api", "billing")
    ]
    pack = build_pack(pull_request(files), config)
    assert pack.diff.oversize.oversized
    assert {s.subsystem for s in pack.diff.oversize.split} == {"api", "billing"}
    assert [b.kind for b in pack.blockers] == ["oversized-diff"]
    assert "api" in pack.blockers[0].recommendation
    small = build_pack(pull_request(files[:1]), config)
    assert not small.diff.oversize.oversized
    assert small.blockers == ()


def test_hotspots_use_new_line_numbers_and_mark_risk() -> None:
    added = [
        "import hmac",
        "def verify(sig, body, key):",
        "    return sig == hmac.new(key, body, 'sha256').hexdigest()",
    ]
    pack = build_pack(pull_request([file_diff("svc/sig.py", added, start=40)]), Config())
    crypto = [h for h in pack.hotspots if h.category == "crypto-operation"]
    assert crypto
    assert crypto[0].line_start == 42
    assert crypto[0].risk_contributing


def test_pack_metadata_and_clock() -> None:
    ticks = iter([10.0, 10.25])
    pack = build_pack(
        pull_request([file_diff("docs/a.md", ["x"])]),
        Config(),
        now=lambda: datetime(2024, 5, 1, 12, 0, tzinfo=UTC),
        clock=lambda: next(ticks),
    )
    assert pack.generated_at == "2024-05-01T12:00:00Z"
    assert pack.wall_clock_ms == 250
    assert pack.diff.stats.files_changed == 1
    assert pack.verification.verifiers == ()
