"""The verifier rule catalog: each entry's examples are its tests; the default rule sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.builtin import bandit_default_set
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.rule_catalog import (
    CATALOG,
    RUFF_DEFAULT_IGNORE,
    RUFF_DEFAULT_SELECT,
    RuleText,
    title_for,
)
from pr_review.verifiers.secrets import _finding, looks_like_placeholder

EXAMPLES = [(entry, *ex) for entry in CATALOG for ex in entry.examples]


@pytest.mark.parametrize(("entry", "rule", "file", "title"), EXAMPLES)
def test_catalog_examples(entry: RuleText, rule: str, file: str, title: str) -> None:
    assert rule in entry.rules
    assert title_for(entry.tool, rule, file) == title


@pytest.mark.parametrize("entry", CATALOG, ids=lambda e: f"{e.tool}:{e.rules[0]}")
def test_every_entry_has_examples_and_clean_text(entry: RuleText) -> None:
    assert entry.examples
    for text in (entry.problem, entry.why, entry.fix):
        assert text.strip() == text
        assert ".." not in text
    assert entry.why.endswith(".")
    assert entry.fix.endswith(".")


def test_each_rule_has_one_entry() -> None:
    keys = [(e.tool, r) for e in CATALOG for r in e.rules]
    assert len(keys) == len(set(keys))


def test_an_unknown_rule_falls_back_to_a_title_naming_it_and_never_the_message() -> None:
    assert title_for("bandit", "B999", "a.py") == "Security pattern flagged (B999) in `a.py`"
    assert title_for("custom:lint", None, "") == "custom:lint finding"


def test_default_ruff_set_finds_bugs_not_style() -> None:
    style = ("I", "E4", "E5", "E7", "W", "UP", "PIE", "FURB", "N", "D", "Q", "COM", "SIM", "RUF")
    assert not any(s.startswith(style) for s in RUFF_DEFAULT_SELECT)
    assert "F" in RUFF_DEFAULT_SELECT
    assert "F401" in RUFF_DEFAULT_IGNORE


def _raw(path: str, rule: str, severity: VerifierSeverity) -> RawFinding:
    return RawFinding(path, 3, None, rule, "msg", severity)


@pytest.mark.parametrize(
    ("path", "rule", "severity", "kept"),
    [
        ("tests/test_pay.py", "B101", VerifierSeverity.INFO, False),
        ("src/pay.py", "B101", VerifierSeverity.INFO, False),  # low severity: off by default
        ("tests/test_pay.py", "B105", VerifierSeverity.INFO, False),
        ("src/pay.py", "B105", VerifierSeverity.INFO, True),
        ("src/db.py", "B608", VerifierSeverity.WARNING, True),
        ("tests/conftest.py", "B608", VerifierSeverity.WARNING, False),  # a fixture's own SQL
        ("src/ecdsa/test_pyecdsa.py", "B324", VerifierSeverity.ERROR, False),  # SHA-1 vectors
        ("src/run.py", "B602", VerifierSeverity.ERROR, True),
    ],
)
def test_bandit_default_set(path: str, rule: str, severity: VerifierSeverity, kept: bool) -> None:
    assert bool(bandit_default_set([_raw(path, rule, severity)])) is kept


@pytest.mark.parametrize(
    "line",
    [
        'self.provider.initialize({"webhook_secret": "whsec_test"})',
        'STRIPE_KEY = "sk_test_fake"',
        'secret = "example-signing-secret"',
    ],
)
def test_sample_markers_are_placeholders(line: str) -> None:
    assert looks_like_placeholder(line)


@pytest.mark.parametrize(
    ("path", "detectors", "text", "severity"),
    [
        ("tests/test_hooks.py", {"Secret Keyword"}, 'secret = "tok_visa"', VerifierSeverity.INFO),
        ("docs/API.md", {"Hex High Entropy String"}, "sig 9f8e7d6c5b4a", VerifierSeverity.INFO),
        ("src/app.py", {"Secret Keyword"}, 'secret = "k9Fq2LmZ7wXr"', VerifierSeverity.WARNING),
    ],
)
def test_guesses_in_tests_and_docs_are_information(
    path: str, detectors: set[str], text: str, severity: VerifierSeverity
) -> None:
    assert _finding(path, 1, set(), detectors, text).severity is severity


def test_a_provider_pattern_in_a_test_is_still_a_leak() -> None:
    found = _finding("tests/test_aws.py", 1, {"aws_access_key_id"}, set(), "key = ...")
    assert found.severity is VerifierSeverity.ERROR


def test_default_sets_are_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text("utf-8")
    for code in (*RUFF_DEFAULT_SELECT, *RUFF_DEFAULT_IGNORE):
        assert f"`{code}`" in doc
