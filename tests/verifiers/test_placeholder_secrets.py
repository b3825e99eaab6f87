"""Guessing detectors (keyword, entropy) on placeholder values are information, not leaks."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.secrets import _finding, looks_like_placeholder


@pytest.mark.parametrize(
    "line",
    [
        """  -d '{"email": "user@example.com", "password": "secret"}'""",
        "API_KEY=${API_KEY}",
        "password: changeme",
        'token = "<your-token>"',
        'api_key: "{{ vault_api_key }}"',
        'PASSWORD="xxxxxx"',
    ],
)
def test_placeholders(line: str) -> None:
    assert looks_like_placeholder(line)


@pytest.mark.parametrize(
    "line",
    [
        'password = "hunter2zzKq9"',
        'secret_key = "8f3kdl20dkXm"',
        "DB_PASSWORD=s3cr3t-Pr0d-2026",
        "no values at all",
    ],
)
def test_real_looking_values(line: str) -> None:
    assert not looks_like_placeholder(line)


def test_keyword_hit_on_placeholder_is_info() -> None:
    finding = _finding("docs/guide.md", 3, set(), {"Secret Keyword"}, 'password: "secret"')
    assert finding.severity is VerifierSeverity.INFO
    assert "placeholder" in finding.message


def test_keyword_hit_on_real_value_stays_warning() -> None:
    finding = _finding("app.py", 3, set(), {"Secret Keyword"}, 'password = "hunter2zzKq9"')
    assert finding.severity is VerifierSeverity.WARNING


def test_provider_pattern_is_never_downgraded() -> None:
    finding = _finding("app.py", 3, {"aws_access_key_id"}, set(), 'key = "secret"')
    assert finding.severity is VerifierSeverity.ERROR


@pytest.mark.parametrize(
    ("path", "severity"),
    [
        ("tests/test_advisory.py", VerifierSeverity.INFO),
        ("docs/usage.rst", VerifierSeverity.INFO),
        ("jwt/api_jwt.py", VerifierSeverity.ERROR),
    ],
)
def test_a_jwt_is_a_fixture_in_tests_and_docs_only(path: str, severity: VerifierSeverity) -> None:
    finding = _finding(path, 41, {"jwt"}, set(), "token = 'eyJhbGciOi...'")
    assert finding.severity is severity


def test_a_private_key_in_tests_is_still_reported() -> None:
    finding = _finding("tests/test_advisory.py", 5, {"private_key"}, set(), "-----BEGIN")
    assert finding.severity is VerifierSeverity.ERROR
