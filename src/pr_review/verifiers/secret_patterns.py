"""High-confidence secret patterns: private keys, cloud keys and provider tokens.

These complement detect-secrets where it lacks a detector, and they are what the reviewer
stage uses to redact text before it leaves for a model. Rules are data: each carries its own
positive and negative examples, which the test suite runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SecretRule:
    """One secret pattern with the examples that pin its behaviour."""

    kind: str
    """Placeholder-friendly name, e.g. ``aws_access_key_id``."""
    pattern: re.Pattern[str]
    matches: tuple[str, ...]
    does_not_match: tuple[str, ...]


@dataclass(frozen=True)
class SecretMatch:
    """Where a secret sits in a text."""

    kind: str
    start: int
    end: int


def _rule(kind: str, regex: str, matches: tuple[str, ...], misses: tuple[str, ...]) -> SecretRule:
    return SecretRule(kind, re.compile(regex), matches, misses)


# Example values are assembled from parts so that this file does not itself trip scanners.
_AWS_ID = "AKIA" + "IOSFODNN7" + "EXAMPLE"
_GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
_SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
_STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
_GOOGLE = "AIza" + "SyA-1234567890abcdefghijklmnopqrstu"
_ANTHROPIC = "sk-ant-" + "api03-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"
_PEM = "-----BEGIN " + "RSA PRIVATE KEY-----"

RULES: tuple[SecretRule, ...] = (
    _rule(
        "private_key",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?",
        (_PEM + "\nMIIEow\n-----END RSA PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----"),
        ("-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----"),
    ),
    _rule(
        "aws_access_key_id",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b",
        (f'key = "{_AWS_ID}"', _AWS_ID),
        ("AKIAshort", "akiaiosfodnn7example1"),
    ),
    _rule(
        "aws_secret_access_key",
        r"(?i)aws.{0,20}?(?:secret|private).{0,20}?['\"=:\s]\s*['\"]?([A-Za-z0-9/+=]{40})\b",
        ('aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',),
        ('aws_secret_access_key = os.environ["AWS_SECRET"]',),
    ),
    _rule(
        "github_token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b",
        (_GH_TOKEN, f"token: {_GH_TOKEN}"),
        ("ghp_short", "gh_pages_deploy_token_name"),
    ),
    _rule(
        "slack_token",
        r"\bxox[baprs]-[A-Za-z0-9-]{10,120}\b",
        (_SLACK,),
        ("xox-nope", "xoxb-"),
    ),
    _rule(
        "stripe_secret_key",
        r"\b(?:sk|rk)_live_[A-Za-z0-9]{16,99}\b",
        (_STRIPE, f'STRIPE_KEY="{_STRIPE}"'),
        ("sk_test_placeholder", "pk_live_"),
    ),
    _rule(
        "google_api_key",
        r"\bAIza[0-9A-Za-z_-]{35}\b",
        (_GOOGLE,),
        ("AIzaShort",),
    ),
    _rule(
        "anthropic_api_key",
        r"\bsk-ant-[A-Za-z0-9_-]{32,200}\b",
        (_ANTHROPIC,),
        ("sk-ant-", "task-ant-runner"),
    ),
    _rule(
        "openai_api_key",
        r"\bsk-(?:proj-)?[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b",
        ("sk-" + "abcdefghij0123456789" + "T3BlbkFJ" + "abcdefghij0123456789",),
        ("sk-not-a-key",),
    ),
    _rule(
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b",
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",),
        ("eyJhbGciOiJIUzI1NiJ9",),
    ),
    _rule(
        "url_credentials",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'\"]{1,64}:[^\s@/'\"]{3,128}@[^\s/'\"]+",
        ("postgres://admin:s3cr3tP4ss@db.internal:5432/app",),
        ("https://example.com/path", "postgres://user@localhost/db", "http://:@x"),
    ),
)


def find_secrets(text: str) -> list[SecretMatch]:
    """Every high-confidence secret in ``text``, in order, overlaps merged to the widest."""
    found = [
        SecretMatch(rule.kind, m.start(), m.end())
        for rule in RULES
        for m in rule.pattern.finditer(text)
    ]
    found.sort(key=lambda s: (s.start, -s.end))
    merged: list[SecretMatch] = []
    for match in found:
        if merged and match.start < merged[-1].end:
            last = merged[-1]
            if match.end > last.end:
                merged[-1] = SecretMatch(last.kind, last.start, match.end)
            continue
        merged.append(match)
    return merged
