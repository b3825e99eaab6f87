"""High-confidence secret patterns: private keys, cloud keys and provider tokens.

These complement detect-secrets where it lacks a detector, and they are what the reviewer
stage uses to redact text before it leaves for a model. Rules are data: each carries its own
positive and negative examples, which the test suite runs.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SecretRule:
    """One secret pattern with the examples that pin its behaviour."""

    kind: str
    """Placeholder-friendly name, e.g. ``aws_access_key_id``."""
    pattern: re.Pattern[str]
    matches: tuple[str, ...]
    does_not_match: tuple[str, ...]
    check: Callable[[re.Match[str]], bool] | None = None
    """A match counts only when this is true of it (a base64 value that decodes to
    ``user:password``, a URL credential that is not for an example host)."""


@dataclass(frozen=True)
class SecretMatch:
    """Where a secret sits in a text."""

    kind: str
    start: int
    end: int


def _rule(
    kind: str,
    regex: str,
    matches: tuple[str, ...],
    misses: tuple[str, ...],
    check: Callable[[re.Match[str]], bool] | None = None,
) -> SecretRule:
    return SecretRule(kind, re.compile(regex), matches, misses, check)


EXAMPLE_HOST = re.compile(
    r"(?i)^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[?::1\]?|"
    r"(?:[\w-]+\.)*(?:example|test|invalid|localhost)|(?:[\w-]+\.)*example\.(?:com|org|net)|"
    r"\{[^{}]*\}|\$\{?\w+\}?|%(?:\(\w+\))?s|<[\w.-]+>)$"
)
"""Loopback and reserved example hosts (RFC 2606, RFC 6761): credentials for them unlock
nothing; documentation and test suites use them. A host filled in at run time (``{self.host}``,
``${HOST}``, ``%s``, ``<host>``) is a template, not a host: urllib3's SOCKS tests build
``socks5://user%3Aname:pa%40ss@{self.host}:{self.port}`` for their own server."""


def _real_url_credentials(match: re.Match[str]) -> bool:
    """URL credentials for a real host with a real-looking password."""
    return not EXAMPLE_HOST.match(match.group("host")) and not is_placeholder(
        match.group("password")
    )


def _base64_text(value: str) -> str | None:
    """``value`` decoded from base64 as UTF-8 text, or None when it is not that."""
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def _real_basic_credentials(match: re.Match[str]) -> bool:
    """An ``Authorization`` value, unless it is ``Basic`` but not credentials: not base64 of
    ``user:password`` (authlib's test of ``"Basic invalid-base64"``), or with a placeholder
    password (``foo:bar``, tornado's proxy test)."""
    if match.group("scheme").lower() != "basic":
        return True
    decoded = _base64_text(match.group("value"))
    if decoded is None:
        return False  # Basic credentials are base64 of user:password; "invalid-base64" is not
    _, sep, password = decoded.partition(":")
    return bool(sep) and not is_placeholder(password)


def _docker_auth(match: re.Match[str]) -> bool:
    """A Docker ``auths.*.auth`` value: base64 of ``user:password``."""
    decoded = _base64_text(match.group("value"))
    if decoded is None:
        return False
    user, sep, password = decoded.partition(":")
    return (
        bool(sep and user and password) and decoded.isprintable() and not is_placeholder(password)
    )


def _dsn_key(match: re.Match[str]) -> bool:
    """A random key as a URL's user (Sentry's DSN), not a user name such as ``git``."""
    key = match.group("value")
    return (
        not EXAMPLE_HOST.match(match.group("host"))
        and any(ch.isdigit() for ch in key)
        and _WORDS_JOINED.match(key) is None
        and is_secret_shaped(key)
    )


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
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
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
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'\"\[\]]{1,64}:(?P<password>[^\s@/'\"\[\]]{3,128})@"
        r"(?P<host>[^\s/:'\"]+)[^\s/'\"]*",
        ("postgres://admin:s3cr3tP4ss@db.internal:5432/app", "https://bot:hunter2x@ci.corp.net/"),
        (
            "https://example.com/path",
            "postgres://user@localhost/db",
            "http://:@x",
            "https://username:password@example.org/",
            "postgres://app:Sup3rS3cret@localhost:5432/app",
            "redis://:s3cr3tP4ssw0rd@cache.test:6379",
            "https://user:${PASSWORD}@registry.corp.net",
            "https://[2001:db8::$1@a]",  # an IPv6 literal: userinfo never holds brackets
            'f"socks5://user%3Aname:pa%40ss@{self.host}:{self.port}"',  # a templated host
        ),
        _real_url_credentials,
    ),
    _rule(
        "docker_registry_auth",
        r"\"auth\"\s*:\s*\"(?P<value>[A-Za-z0-9+/]{8,}={0,2})\"",
        ('{"auths": {"registry.corp.net": {"auth": "' + "Ym90OnM3cm9uZy1QNHNzd29yZA==" + '"}}}',),
        (
            '"auth": "bearer"',
            '"auth": "' + "dXNlcm5hbWU=" + '"',  # no password
            '"auth": "' + "Ym90OmNoYW5nZW1l" + '"',  # bot:changeme, a placeholder
        ),
        _docker_auth,
    ),
    _rule(
        "dsn_key",
        r"\b[a-z][a-z0-9+.-]{1,20}://(?P<value>[A-Za-z0-9_-]{16,128})(?::[A-Za-z0-9_-]{0,128})?"
        r"@(?P<host>[A-Za-z0-9.-]+)",
        ("https://" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0" + "@o123456.ingest.sentry.io/42",),
        (
            "https://git@github.com/org/repo",
            "https://" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0" + "@sentry.example.com/1",
            "ssh://deploy-user-for-builds@git.corp.net/repo",
        ),
        _dsn_key,
    ),
)


_PLACEHOLDER = re.compile(
    r"(?i)^(?:x{3,}|\*{3,}|\.{3,}|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|%\([^)]*\)s"
    r"|changeme|change[_-]?me|dummy\S*|test[_-]\S*|fake\S*|example\S*|sample\S*|placeholder\S*"
    r"|redacted\S*|\[redacted\S*|your[_-]\S*|none|null|nil|true|false|str|int|bool|bytes|optional"
    r"|password|pass|passwd|pwd|secret|token|string|required|self|env|os\.environ\S*"
    r"|getenv\S*)$"
)
_DOTTED_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_CALL = re.compile(r"^[A-Za-z_][\w.]*[(\[]")
"""``get_token(request``, ``app.config[``: the value of ``token = get_token(request)`` or
``SECRET_KEY = app.config["KEY"]`` is code, not a secret
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


_NUMBER = re.compile(r"^[+-]?(?:\d[\d_,]*(?:\.\d+)?(?:e[+-]?\d+)?|0x[0-9a-f]+)[a-z%]{0,3}$", re.I)
_WORD = r"[A-Za-z]+"
_IDENTIFIER = re.compile(rf"^{_WORD}(?:_{_WORD})*$")
_WORDS_JOINED = re.compile(rf"^{_WORD}(?:[-.]{_WORD})+$")
_NOT_A_TOKEN = re.compile(
    r"^(?:[\w.-]+:\d{1,5}"  # host:port
    r"|[a-z][a-z0-9+.-]*://[^@\s]*"  # a URL without credentials
    r"|[^@\s:/]+@[\w-]+(?:\.[\w-]+)+"  # an e-mail address
    r"|v?\d+(?:\.\d+)+(?:[-+][\w.]+)?"  # a version
    r"|\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"  # a date
    r"|(?:sha\d+|md5|sha):[0-9a-f]+"  # a digest reference
    r")$",
    re.I,
)
_PATH = re.compile(r"^(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]*$")
_PATH_SEGMENT = re.compile(r"^(?:[a-z0-9_.-]*|[A-Z][a-z0-9_.-]*)$")
_BOOLEAN_LIKE = frozenset({"true", "false", "yes", "no", "on", "off", "enabled", "disabled"})
MIN_SECRET_CHARS = 8
"""Shorter values are not taken as secrets by shape (a specific rule can still say so)."""
PASSPHRASE_CHARS = 20
"""Letters-only values at least this long and random enough read as passphrases."""


def is_secret_shaped(value: str) -> bool:
    """Whether ``value`` has a credential's shape.

    Not a secret by shape: shorter than :data:`MIN_SECRET_CHARS`, a placeholder, a number
    (``3600``, ``4096``, ``1.5e3``), a boolean, prose (whitespace), a plain word or an
    identifier (``development``, ``initial-token``, ``max_tokens``), a host and port, a URL
    without credentials, an e-mail address, or a path of ordinary names. A secret by shape:
    letters mixed with digits or symbols with some randomness (``hunter2hunter``,
    ``wJalr.../K7MDENG/...``), or a long random run of letters, or four or more words joined
    by ``-``/``.`` (a passphrase). Used where a rule guesses from a name (``SECRET_KEY =
    ...``, ``Bearer ...``), never for a provider pattern: a key of a known kind is redacted
    whatever it looks like.
    """
    quoted = value.strip().strip("'\"`")
    stripped = quoted.rstrip(")]},;:.").lstrip("([{")
    if (
        len(stripped) < MIN_SECRET_CHARS
        or is_placeholder(quoted)
        or is_placeholder(stripped)
        or _NUMBER.match(stripped)
        or stripped.lower() in _BOOLEAN_LIKE
        or any(ch.isspace() for ch in stripped)
        or _IDENTIFIER.match(stripped)
        or _NOT_A_TOKEN.match(stripped)
        or (_PATH.match(stripped) and all(_PATH_SEGMENT.match(p) for p in stripped.split("/")))
    ):
        return False
    if _WORDS_JOINED.match(stripped):
        return len(re.split(r"[-.]", stripped)) >= 4 and len(stripped) >= PASSPHRASE_CHARS
    if stripped.isalpha():
        return len(stripped) >= PASSPHRASE_CHARS and _entropy(stripped) >= 3.0
    return any(ch.isalpha() for ch in stripped) and _entropy(stripped) >= 2.5


_QUOTED = re.compile(r"""(["'`])([^"'`\n]{8,512})\1""")
_ASSIGNED = re.compile(r"""(?:=|:|=>)\s*([^\s"'`,;#]{8,512})""")
_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/_.~-]{16,512}={0,2}")


def flagged_values(line: str) -> list[str]:
    """The values on a line a secrets scanner flagged that should be hidden from a model.

    Every span a rule recognises (a provider key, URL credentials for a real host, a
    keyword's secret-shaped value), then quoted strings, assigned values and long tokens
    that have a credential's shape (:func:`is_secret_shaped`). URL credentials are only ever
    taken from the rule, which knows example hosts and placeholder passwords. Never the whole
    line: the name, the call and the rest of the code stay readable.
    """
    found = [line[m.start : m.end] for m in find_redactable(line)]
    for regex, group in ((_QUOTED, 2), (_ASSIGNED, 1), (_LONG_TOKEN, 0)):
        for m in regex.finditer(line):
            value = m.group(group)
            if "://" not in value and "@" not in value and is_secret_shaped(value):
                found.append(value)
    return list(dict.fromkeys(found))


def _entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())


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
        r"(?i)\b(?P<scheme>Bearer|Basic|Token)\s+(?P<value>[A-Za-z0-9._~+/=-]{12,})",
        ("Authorization: Bearer " + "abcDEF123456ghiJKL789",
         "Authorization: Basic " + "ZGVwbG95OktxOHZSMnhMbTlUeg=="),  # deploy:Kq8vR2xLm9Tz
        ("Bearer token", "Basic auth",
         'b"proxy auth: Basic Zm9vOmJhcg=="',  # foo:bar, tornado's proxy test fixture
         'text = "Basic invalid-base64"'),
        _real_basic_credentials,
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
            if rule.check is not None and not rule.check(m):
                continue
            if "value" not in rule.pattern.groupindex:
                found.append(SecretMatch(rule.kind, m.start(), m.end()))
            elif rule.kind in SPECIFIC_VALUE_KINDS or is_secret_shaped(m.group("value")):
                found.append(SecretMatch(rule.kind, m.start("value"), m.end("value")))
    return _merged(found)


SPECIFIC_VALUE_KINDS = frozenset({"azure_storage_key"})
"""Value-capturing rules whose context names the kind of key exactly: their values need no
secret shape. The others guess from a word (``password =``, ``Bearer``), so their values must
look like a credential (:func:`is_secret_shaped`)."""


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
        SecretMatch(rule.kind, *_span(m))
        for rule in RULES
        for m in rule.pattern.finditer(text)
        if rule.check is None or rule.check(m)
    ]
    return _merged(found)


_URL_CREDENTIAL = re.compile(r"://[^\s:/@'\"]+:(?P<password>[^\s@/'\"]+)@(?P<host>[^\s/:'\"]+)")


def placeholder_url_credentials(text: str) -> bool:
    """True when ``text`` holds URL credentials and every one is a stand-in: for a loopback or
    reserved example host (RFC 2606/6761: ``localhost``, ``*.example``, ``example.com``...) or
    with a placeholder password. Test fixtures and docs use these; they unlock nothing."""
    found = list(_URL_CREDENTIAL.finditer(text))
    return bool(found) and all(
        EXAMPLE_HOST.match(m.group("host")) or is_placeholder(m.group("password")) for m in found
    )


def passes_rule_check(text: str) -> bool:
    """False when ``text`` matches a checked rule (docker auth, a DSN key, URL credentials)
    whose check rejects every one of its matches there, and no other rule: the evidence scan
    runs the rules' expressions alone and asks this before it calls a hit a secret."""
    verdicts = [
        rule.check is None or rule.check(m) for rule in RULES for m in rule.pattern.finditer(text)
    ]
    return not verdicts or any(verdicts)


def _span(match: re.Match[str]) -> tuple[int, int]:
    """The secret's span: the ``value`` group when the rule has one, else the whole match."""
    if "value" in match.re.groupindex:
        return match.start("value"), match.end("value")
    return match.start(), match.end()


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


FIXTURE_TOKEN_KINDS = frozenset({"jwt"})
"""Kinds that are self-contained tokens rather than keys to an account: in tests and docs a
JWT is a fixture signed with a test key (read on the tune half: pyjwt's advisory tests), so
it is information there, for the verifier and for the lane alike. Provider keys are never
downgraded; a private key in a test file is a fixture for the lane (moderate:
``evidence.risk._test_keys_only``) and information for the verifier
(``verifiers.secrets.FIXTURE_KEY_KINDS``)."""
