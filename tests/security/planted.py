"""Credentials of many kinds, planted in every place a PR can carry text.

No literal credential sits in the repository: each value is assembled at import time from a
provider prefix and deterministic pseudo-random characters (a hash of the kind's name), so
scanners of this repository find nothing, and every run plants the same values.

``PLANTS`` says, for each kind, the value that must never appear in any output and where it
was planted; ``pr_files`` lays them out as a PR (base and head trees, PR text, commit
message) that both the local ``review`` and the Action's loopback GitHub can serve.
"""

from __future__ import annotations

import base64
import hashlib
import string
from dataclasses import dataclass

_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_UPPER = string.ascii_uppercase + string.digits
_B64 = _ALNUM + "+/"


def chars(seed: str, n: int, alphabet: str = _ALNUM) -> str:
    """``n`` characters of ``alphabet`` that look random and are the same on every run."""
    out: list[str] = []
    counter = 0
    while len(out) < n:
        digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
        out.extend(alphabet[b % len(alphabet)] for b in digest)
        counter += 1
    return "".join(out[:n])


@dataclass(frozen=True)
class Plant:
    """One planted credential: its kind, the value, and where it sits."""

    kind: str
    value: str
    place: str
    """Where it was planted (for the report table)."""


def _v(kind: str, prefix: str, n: int, alphabet: str = _ALNUM, suffix: str = "") -> str:
    return prefix + chars(kind, n, alphabet) + suffix


def _pem(kind: str, label: str) -> str:
    body = "\n".join(chars(f"{kind}{i}", 64, _B64) for i in range(4))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


_BASIC_USER = "deploy"
_BASIC_PW = chars("basic-pw", 14)

V = {
    "aws_access_key_id": _v("aws-id", "AKIA", 16, _UPPER),
    "aws_secret_access_key": chars("aws-secret", 40, _ALNUM + "/+"),
    "github_token": _v("ghp", "ghp_", 36),
    "github_fine_grained_pat": _v("gh-pat", "github_pat_", 82, _ALNUM + "_"),
    "gitlab_token": _v("glpat", "glpat-", 20, _ALNUM + "_-"),
    "slack_bot_token": "xoxb-" + chars("slack1", 12, "0123456789") + "-"
    + chars("slack2", 13, "0123456789") + "-" + chars("slack3", 24),
    "slack_webhook": "https://hooks.slack.com/services/T" + chars("swh1", 8, _UPPER) + "/B"
    + chars("swh2", 10, _UPPER) + "/" + chars("swh3", 24),
    "stripe_secret_key": _v("stripe", "sk_" + "live_", 24),
    "stripe_restricted_key": _v("stripe-rk", "rk_" + "live_", 24),
    "google_api_key": _v("google", "AI" + "za", 35, _ALNUM + "_-"),
    "anthropic_api_key": _v("anthropic", "sk-" + "ant-api03-", 93, _ALNUM + "_-", "AA"),
    "openai_api_key": "sk-proj-" + chars("oai1", 20) + "T3Blbk" + "FJ" + chars("oai2", 20),
    "jwt": "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiI"
    + chars("jwt1", 30, _ALNUM + "_-") + "." + chars("jwt2", 43, _ALNUM + "_-"),
    "sendgrid_api_key": "SG." + chars("sg1", 22, _ALNUM + "_-") + "."
    + chars("sg2", 43, _ALNUM + "_-"),
    "npm_token": _v("npm", "npm_", 36),
    "pypi_token": _v("pypi", "pypi-" + "AgEIcHlwaS5vcmc", 60, _ALNUM + "_-"),
    "twilio_api_key": _v("twilio", "SK", 32, _HEX),
    "mailgun_api_key": _v("mailgun", "key-", 32, _HEX),
    "shopify_access_token": _v("shopify", "shp" + "at_", 32, _HEX),
    "hashicorp_vault_token": _v("vault", "hv" + "s.", 90, _ALNUM + "_-"),
    "digitalocean_token": _v("do", "dop_" + "v1_", 64, _HEX),
    "age_secret_key": _v("age", "AGE-SECRET-" + "KEY-1", 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
    "telegram_bot_token": chars("tg1", 10, "123456789") + ":AA" + chars("tg2", 33, _ALNUM + "_-"),
    "azure_storage_key": chars("azure", 86, _B64) + "==",
    "rsa_private_key": _pem("rsa", "RSA " + "PRIVATE KEY"),
    "openssh_private_key": _pem("ssh", "OPENSSH " + "PRIVATE KEY"),
    "url_credentials": chars("url-pw", 16),
    "authorization_bearer": chars("bearer", 40, _ALNUM + "-._~"),
    "authorization_basic": base64.b64encode(f"{_BASIC_USER}:{_BASIC_PW}".encode()).decode(),
    "curl_user_password": chars("curl-pw", 12) + "!",
    "bandit_b105_single_quoted": chars("b105", 14) + "#",
    "bandit_b106_keyword_argument": chars("b106", 15),
    "yaml_api_key": chars("yaml-key", 32, _HEX),
    "removed_line_password": chars("removed", 18),
    "context_line_password": chars("context", 18),
    "deleted_env_file_secret": chars("envprod", 30),
    "utf16_aws_access_key_id": _v("utf16", "AKIA", 16, _UPPER),
    "pr_title_token": _v("title", "ghp_", 36),
    "pr_body_prose_password": chars("prose", 16),
    "commit_message_key": _v("commit", "sk_" + "live_", 28),
    "file_name_token": _v("fname", "glpat-", 20, _ALNUM),
}

PLACEHOLDERS = ("xxxx", "changeme", "<token>", "${SECRET_KEY}", "test-key-123", "dummy")
"""Stand-ins that must be recognized as non-secrets: not reported, not redacted."""

_PLACES = {
    "azure_storage_key": "added line (connection string)",
    "rsa_private_key": "added file (PEM block)",
    "openssh_private_key": "added file (PEM block)",
    "url_credentials": "added line and PR body (URL user:password)",
    "authorization_bearer": "shell script header",
    "authorization_basic": "shell script header",
    "curl_user_password": "shell script `curl -u`",
    "bandit_b105_single_quoted": "added line, quoted by bandit's B105 message",
    "bandit_b106_keyword_argument": "added line, quoted by bandit's B106 message",
    "yaml_api_key": "added YAML line",
    "removed_line_password": "removed line",
    "context_line_password": "unchanged context line",
    "deleted_env_file_secret": "deleted .env.production",
    "utf16_aws_access_key_id": "added UTF-16 file",
    "pr_title_token": "PR title",
    "pr_body_prose_password": "PR body, prose `password: X`",
    "commit_message_key": "commit message",
    "file_name_token": "file name",
}

PLANTS = tuple(
    Plant(kind, value, _PLACES.get(kind, "added line")) for kind, value in V.items()
)

FILE_NAME = f"fixtures/{V['file_name_token']}.json"
UTF16_FILE = "data/credentials.txt"

TITLE = f"Deploy tooling (temporary token {V['pr_title_token']})"
BODY = (
    "Adds deploy scripts and clients.\n\n"
    f"For staging, the db password: {V['pr_body_prose_password']}\n"
    f"Staging DB: postgres://app:{V['url_credentials']}@staging.db.internal:5432/app\n"
)
COMMIT_MESSAGE = f"Add deploy tooling\n\nUses the live key {V['commit_message_key']} for now.\n"

BASE_FILES: dict[str, bytes] = {
    "README.md": b"# demo\n\nA demo service.\n",
    "app/__init__.py": b"",
    "app/settings.py": (
        "import os\n\n"
        f'DB_PASSWORD = "{V["context_line_password"]}"\n'
        f'OLD_TOKEN = "{V["removed_line_password"]}"\n'
        'DEBUG = os.environ.get("DEBUG") == "1"\n'
    ).encode(),
    ".env.production": (
        f"SECRET_KEY={V['deleted_env_file_secret']}\nLOG_LEVEL=info\n"
    ).encode(),
}


def _clients() -> str:
    lines = [
        "import requests",
        "",
        "",
        "def connect(host, password):",
        "    return (host, password)",
        "",
        "",
        f'AWS_ACCESS_KEY_ID = "{V["aws_access_key_id"]}"',
        f'AWS_SECRET_ACCESS_KEY = "{V["aws_secret_access_key"]}"',
        f'GITHUB = "{V["github_token"]}"',
        f'GITHUB_PAT = "{V["github_fine_grained_pat"]}"',
        f'GITLAB = "{V["gitlab_token"]}"',
        f'SLACK = "{V["slack_bot_token"]}"',
        f'SLACK_HOOK = "{V["slack_webhook"]}"',
        f'STRIPE = "{V["stripe_secret_key"]}"',
        f'STRIPE_RK = "{V["stripe_restricted_key"]}"',
        f'GOOGLE = "{V["google_api_key"]}"',
        f'ANTHROPIC = "{V["anthropic_api_key"]}"',
        f'OPENAI = "{V["openai_api_key"]}"',
        f'SESSION = "{V["jwt"]}"',
        f'SENDGRID = "{V["sendgrid_api_key"]}"',
        f'NPM = "{V["npm_token"]}"',
        f'PYPI = "{V["pypi_token"]}"',
        f'TWILIO = "{V["twilio_api_key"]}"',
        f'MAILGUN = "{V["mailgun_api_key"]}"',
        f'SHOPIFY = "{V["shopify_access_token"]}"',
        f'VAULT = "{V["hashicorp_vault_token"]}"',
        f'DIGITALOCEAN = "{V["digitalocean_token"]}"',
        f'AGE = "{V["age_secret_key"]}"',
        f'TELEGRAM = "{V["telegram_bot_token"]}"',
        (
            'AZURE = "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey='
            f'{V["azure_storage_key"]};EndpointSuffix=core.windows.net"'
        ),
        f'DATABASE_URL = "postgres://app:{V["url_credentials"]}@db.internal:5432/app"',
        f"password = '{V['bandit_b105_single_quoted']}'",
        f"conn = connect('db', password='{V['bandit_b106_keyword_argument']}')",
        "",
    ]
    return "\n".join(lines)


def _script() -> str:
    return "\n".join(
        [
            "#!/bin/sh",
            "set -eu",
            f'curl -H "Authorization: Bearer {V["authorization_bearer"]}" https://api.example.com/x',
            f'curl -H "Authorization: Basic {V["authorization_basic"]}" https://api.example.com/y',
            f"curl -u {_BASIC_USER}:{V['curl_user_password']} https://api.example.com/z",
            "",
        ]
    )


def _placeholders() -> str:
    xs, change, angle, env, test, dummy = PLACEHOLDERS
    return "\n".join(
        [
            f"API_TOKEN={xs}",
            f"PASSWORD={change}",
            f"GITHUB_TOKEN={angle}",
            f'SECRET_KEY="{env}"',
            f"STRIPE_KEY={test}",
            f"DB_PASSWORD={dummy}",
            "",
        ]
    )


HEAD_FILES: dict[str, bytes] = {
    "README.md": b"# demo\n\nA demo service with deploy tooling.\n",
    "app/__init__.py": b"",
    "app/settings.py": (
        "import os\n\n"
        f'DB_PASSWORD = "{V["context_line_password"]}"\n'
        'DEBUG = os.environ.get("DEBUG") == "1"\n'
        'REGION = "eu-west-1"\n'
    ).encode(),
    "app/clients.py": _clients().encode(),
    "scripts/deploy.sh": _script().encode(),
    "config/app.yml": f"service: demo\napi_key: {V['yaml_api_key']}\n".encode(),
    "keys/server.key": (V["rsa_private_key"] + "\n").encode(),
    "keys/deploy_ed25519": (V["openssh_private_key"] + "\n").encode(),
    UTF16_FILE: f"aws_access_key_id = {V['utf16_aws_access_key_id']}\nregion = eu\n".encode(
        "utf-16"
    ),
    FILE_NAME: b'{"fixture": true}\n',
    "config/example.env": _placeholders().encode(),
}
"""The PR's head tree (``.env.production`` is deleted)."""


def assert_distinct() -> None:
    """Every planted value is distinct (a leak report must name one kind)."""
    values = [p.value for p in PLANTS]
    assert len(values) == len(set(values))
