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
        "sendgrid_api_key",
        r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
        ("SG." + "a" * 22 + "." + "B" * 43,),
        ("SG.short.x",),
    ),
    _rule(
        "npm_token",
        r"\bnpm_[A-Za-z0-9]{36}\b",
        ("npm_" + "a1B2" * 9,),
        ("npm_install",),
    ),
    _rule(
        "pypi_token",
        r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
        ("pypi-AgEIcHlwaS5vcmc" + "x1Y2" * 14,),
        ("pypi-upload",),
    ),
    _rule(
        "gitlab_token",
        r"\bgl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,64}\b",
        ("glpat-" + "x7Kq2Lm9Np4Rs8Tv1Wz0",),
        ("glpat-short", "gl-pattern"),
    ),
    _rule(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/_-]{20,}",
        ("https://hooks.slack.com/services/" + "T0123ABCD/B0123ABCD/" + "a1B2c3D4e5F6g7H8",),
        ("https://hooks.slack.com/services/", "https://api.slack.com/services/abc"),
    ),
    _rule(
        "mailgun_api_key",
        r"\bkey-[0-9a-f]{32}\b",
        ("key-" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0",),
        ("key-value-store", "key-" + "0123"),
    ),
    _rule(
        "shopify_token",
        r"\bshp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}\b",
        ("shpat_" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0",),
        ("shpat_short", "shipat_0f1e"),
    ),
    _rule(
        "vault_token",
        r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}",
        ("hvs." + "CAESI" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6",),
        ("hvs.short", "this.hvs.value"),
    ),
    _rule(
        "digitalocean_token",
        r"\bdo[opr]_v1_[0-9a-f]{64}\b",
        ("dop_v1_" + "0f1e2d3c4b5a6978" * 4,),
        ("dop_v1_short",),
    ),
    _rule(
        "age_secret_key",
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
        ("AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58],),
        ("AGE-SECRET-KEY-1SHORT",),
    ),
    _rule(
        "telegram_bot_token",
        r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b",
        ("123456789:AA" + "Hx7Kq2Lm9Np4Rs8Tv1Wz0a1B2c3D4e5F6",),
        ("12:30:AAA", "123456789:AAshort"),
    ),
    _rule(
        "url_credentials",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'\"]{1,64}:[^\s@/'\"]{3,128}@[^\s/'\"]+",
        ("postgres://admin:s3cr3tP4ss@db.internal:5432/app",),
        ("https://example.com/path", "postgres://user@localhost/db", "http://:@x"),
    ),
)


_PLACEHOLDER = re.compile(
    r"(?i)^(?:x{3,}|\*{3,}|\.{3,}|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|%\([^)]*\)s"
    r"|changeme|change[_-]?me|dummy\S*|test[_-]\S*|fake\S*|example\S*|sample\S*|placeholder\S*"
    r"|redacted\S*|\[redacted\S*|your[_-]\S*|none|null|nil|true|false|str|int|bool|bytes|optional"
    r"|password|secret|token|string|required|self|env|os\.environ\S*|getenv\S*)$"
)
_DOTTED_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_CALL = re.compile(r"^[A-Za-z_][\w.]*\(")
"""``get_token(request``: the value of ``token = get_token(request)`` is code, not a secret
(redacting it hid the code a reviewer reads, and a large PR's thousands of such "values"
made every model request slow to redact)."""


def is_placeholder(value: str) -> bool:
    """Whether ``value`` is a stand-in (``xxxx``, ``changeme``, ``<token>``, ``${VAR}``, ...).

    Placeholders are not secrets: they are neither reported nor redacted.
    """
    stripped = value.strip().strip("'\"`")
    return (
        len(stripped) < 4
        or _PLACEHOLDER.match(stripped) is not None
        or _DOTTED_NAME.match(stripped) is not None
        or _CALL.match(stripped) is not None
        or len(set(stripped)) <= 2
    )


_KEYWORD = (
    r"(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|"
    r"private[_-]?key|client[_-]?secret|auth[_-]?key|credentials?|signing[_-]?key)"
)
_VALUE_END = r"(?=$|[\s\"'`,;)}\]])"

# Broader, value-capturing rules used only at the model boundary (redaction), where a false
# positive costs a placeholder in the prompt and a miss costs a leak. Each rule's ``value``
# group is what gets registered and replaced; placeholders are skipped.
REDACTION_RULES: tuple[SecretRule, ...] = (
    _rule(
        "twilio_api_key",
        r"\b(?:SK|AC)[0-9a-f]{32}\b",
        ("SK" + "0123456789abcdef" * 2,),
        ("SKIP_THIS", "AC" + "0123"),
    ),
    _rule(
        "authorization_header",
        r"(?i)\b(?:Bearer|Basic|Token)\s+(?P<value>[A-Za-z0-9._~+/=-]{12,})",
        ("Authorization: Bearer " + "abcDEF123456ghiJKL789",),
        ("Bearer token", "Basic auth"),
    ),
    _rule(
        "curl_user_password",
        r"(?:\s-u|--user)[\s=]+[\"']?[^\s:\"']{1,64}:(?P<value>[^\s\"']{3,128})",
        ("curl -u admin:" + "Sup3rS3cret!" + " https://x",),
        ("curl -u admin https://x",),
    ),
    _rule(
        "keyword_secret",
        r"(?i)" + _KEYWORD + r"[\w.-]*[\"']?\s*(?:=|:|=>|\bis\b)\s*"
        r"(?P<q>[\"'`]?)(?P<value>[^\s\"'`,;]{4,256})(?P=q)" + _VALUE_END,
        ('DB_PASSWORD = "' + "hunter2hunter" + '"', "the db password: " + "Tr0ub4dor3"),
        (
            'password = "changeme"',
            "password = os.environ['X']",
            "token: ${TOKEN}",
            "token = self.queue(token)",
            "password = get_password(user, realm)",
        ),
    ),
    _rule(
        "azure_storage_key",
        r"(?i)AccountKey=(?P<value>[A-Za-z0-9+/=]{40,100})",
        ("AccountKey=" + "A" * 20 + "b" * 20 + "C" * 20 + "d" * 20 + "12==",),
        ("AccountKey=short",),
    ),
)


def find_redactable(text: str) -> list[SecretMatch]:
    """Every span of ``text`` to redact: the high-confidence rules, then the broad rules' values."""
    found = list(find_secrets(text))
    for rule in REDACTION_RULES:
        for m in rule.pattern.finditer(text):
            if "value" not in rule.pattern.groupindex:
                found.append(SecretMatch(rule.kind, m.start(), m.end()))
            elif not is_placeholder(m.group("value")):
                found.append(SecretMatch(rule.kind, m.start("value"), m.end("value")))
    return _merged(found)


DETECTED_REDACTION_KINDS = frozenset(
    {"twilio_api_key", "authorization_header", "curl_user_password", "azure_storage_key"}
)
"""Boundary rules whose matches are reported as findings too. ``keyword_secret`` is not:
detect-secrets' keyword detector reports those lines, with its placeholder and sample
handling, and the broad rule would only add noise to what a reviewer reads."""


def find_detectable(text: str) -> list[SecretMatch]:
    """Every secret the secrets verifier reports: the high-confidence rules, then the
    value-capturing boundary rules of :data:`DETECTED_REDACTION_KINDS` (placeholders skipped)."""
    return _merged(
        [
            *find_secrets(text),
            *(m for m in find_redactable(text) if m.kind in DETECTED_REDACTION_KINDS),
        ]
    )


def find_secrets(text: str) -> list[SecretMatch]:
    """Every high-confidence secret in ``text``, in order, overlaps merged to the widest."""
    found = [
        SecretMatch(rule.kind, m.start(), m.end())
        for rule in RULES
        for m in rule.pattern.finditer(text)
    ]
    return _merged(found)


def _merged(found: list[SecretMatch]) -> list[SecretMatch]:
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
