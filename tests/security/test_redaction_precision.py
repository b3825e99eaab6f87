"""Redaction hides credentials and nothing else: what the model reads is otherwise the PR.

A PR with settings named like secrets (``TOKEN_TTL = 3600``, ``MAX_TOKENS = 4096``,
``SECRET_KEY = "development"``), numbers that contain those values (``40961``), prose that
uses the words ("Start the development server") and an example credential on a reserved
example host reaches the model intact; a real AWS key pair in the same PR does not.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pr_review.packet.state import render_state
from pr_review.reviewers.prompts import load_prompt
from pr_review.reviewers.redact import Redactor
from pr_review.synthesis.memory import MemoryEntry, ReviewMemory
from pr_review.verifiers.secret_patterns import (
    find_detectable,
    find_redactable,
    flagged_values,
    is_secret_shaped,
)
from tests.fakes.anthropic_server import (
    FakeAnthropic,
    RecordedRequest,
    Reply,
    anthropic_server,
    by_tool,
    tool_reply,
)
from tests.gitrepo import GitRepo

pytestmark = pytest.mark.slow

# Assembled at test time: no literal credential sits in the repository.
AWS_ID = "AKIA" + "Q3EXAMPLE7WZ4NRT"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzQ7x9Tq2LmNd"
DOCKER_AUTH = "Ym90OnM3cm9uZy1QNHNzd29yZA=="  # bot:s7rong-P4ssword
SENTRY_KEY = "0f1e2d3c4b5a6978" + "8796a5b4c3d2e1f0"

SETTINGS = (
    "import os\n\n"
    "TOKEN_TTL = 3600\n"
    "MAX_TOKENS = 4096\n"
    'SECRET_KEY = "development"\n'
    "PASSWORD_MIN_LENGTH = 12\n"
    "SESSION_COOKIE_SECURE = True\n"
    "\n\n"
    "def fetch(client, url, stream):\n"
    "    client.get(url, timeout=TOKEN_TTL)\n"
    "    return stream.read(40961)\n"
)
CREDENTIALS = (
    "import boto3\n\n"
    f'AWS_ACCESS_KEY_ID = "{AWS_ID}"\n'
    f'aws_secret_access_key = "{AWS_SECRET}"\n'
    "\n\n"
    "def s3():\n"
    "    return boto3.client('s3', aws_access_key_id=AWS_ACCESS_KEY_ID,\n"
    "                        aws_secret_access_key=aws_secret_access_key)\n"
)
DOCS = "# Running\n\nStart the development server with `make dev`; tokens expire after 3600 s.\n"
URL_TESTS = (
    "from app.urls import split\n\n\n"
    "def test_userinfo():\n"
    '    assert split("https://username:password@example.org/").user == "username"\n'
)
INTACT = (
    "TOKEN_TTL = 3600",
    "MAX_TOKENS = 4096",
    'SECRET_KEY = "development"',
    "stream.read(40961)",
    "timeout=TOKEN_TTL",
    "Start the development server",
    "https://username:password@example.org/",
)


def _quiet(request: RecordedRequest) -> Reply:
    return tool_reply(request, {"findings": [], "injection_attempts": []})


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> list[RecordedRequest]:
    """Every model request of ``pr-review review`` on the PR."""
    tmp = tmp_path_factory.mktemp("precision")
    repo = GitRepo.init(tmp / "repo")
    repo.write("README.md", "# demo\n")
    repo.write("app/__init__.py", "")
    repo.commit("base")
    repo.branch("feature")
    for path, text in {
        "app/settings.py": SETTINGS,
        "app/storage.py": CREDENTIALS,
        "docs/running.md": DOCS,
        "tests/test_urls.py": URL_TESTS,
    }.items():
        repo.write(path, text)
    repo.commit("Settings, storage and docs")
    handler = by_tool({"submit_review": _quiet, "submit_challenge": _quiet})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITHUB_"))}
    with anthropic_server(handler) as model:
        done = _review(repo.path, tmp / "out", env, model)
        requests = list(model.messages_requests)
    assert done.returncode == 0, done.stderr
    assert requests, "the model was never called"
    return requests


def _review(
    repo: Path, out: Path, env: dict[str, str], model: FakeAnthropic
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pr_review", "review", "--repo", str(repo), "--base", "main",
         "--body", "Adds settings; see docs/running.md.", "--out-dir", str(out)],
        capture_output=True,
        text=True,
        env={**env, "ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": model.base_url},
        timeout=300,
        check=False,
    )  # fmt: skip


def _decoded(request: RecordedRequest) -> str:
    return json.dumps(json.loads(request.body), ensure_ascii=False)


def test_settings_numbers_and_prose_reach_the_model_intact(sent: list[RecordedRequest]) -> None:
    for request in sent:
        text = request.text
        for expected in INTACT:
            assert expected in text, (request.tool_name, expected)


def test_the_real_key_pair_does_not(sent: list[RecordedRequest]) -> None:
    for request in sent:
        body = request.body.decode() + _decoded(request)
        assert AWS_ID not in body
        assert AWS_SECRET not in body
        assert json.dumps(AWS_SECRET)[1:-1] not in body
    # Exactly two values hidden: the key id and the secret (each named by the rule that
    # found it first), nothing else in the request.
    placeholders = set(re.findall(r"\[REDACTED:[a-z0-9_]+#\d+\]", sent[0].text))
    assert len(placeholders) == 2, placeholders


def test_the_projects_own_prompt_is_never_rewritten(sent: list[RecordedRequest]) -> None:
    pieces = load_prompt("system").split("{token}")  # the fence token is chosen per run
    for request in sent:
        text = request.json["system"][0]["text"]
        assert all(piece in text for piece in pieces)
        assert len(text) - sum(map(len, pieces)) <= 64 * (len(pieces) - 1)


@pytest.mark.parametrize(
    ("value", "secret"),
    [
        ("3600", False),
        ("4096", False),
        ("development", False),
        ("code", False),
        ("initial-token", False),
        ("max_tokens_per_unit", False),
        ("/etc/ssl/private/server.pem", False),
        ("localhost:5432", False),
        ("2024-01-02T03:04:05Z", False),
        ("v1.2.3-rc1", False),
        ("hunter2hunter", True),
        ("Tr0ub4dor3", True),
        ("correct-horse-battery-staple", True),
        (AWS_SECRET, True),
    ],
)
def test_secret_shape(value: str, secret: bool) -> None:
    assert is_secret_shaped(value) is secret


def test_a_flagged_line_gives_its_value_not_the_line() -> None:
    assert flagged_values("TOKEN_TTL = 3600") == []
    assert flagged_values('SECRET_KEY = "development"') == []
    assert flagged_values("PASSWORD=changeme") == []
    assert flagged_values('    assert split("https://username:password@example.org/")') == []
    assert flagged_values('DB_PASSWORD = "hunter2hunter"') == ["hunter2hunter"]
    assert flagged_values(f"client = Client(key={AWS_ID})") == [AWS_ID]


def test_known_values_are_replaced_as_whole_tokens_only() -> None:
    redactor = Redactor()
    placeholder = redactor.add("Zq9kW2x7Lp", "keyword_secret")
    text = "a=Zq9kW2x7Lp b=xZq9kW2x7Lp c=Zq9kW2x7Lp1 d=(Zq9kW2x7Lp)"
    assert redactor.redact(text) == (
        f"a={placeholder} b=xZq9kW2x7Lp c=Zq9kW2x7Lp1 d=({placeholder})"
    )


def test_docker_registry_auth_and_dsn_keys_are_found_and_redacted() -> None:
    config = json.dumps({"auths": {"registry.corp.net": {"auth": DOCKER_AUTH}}})
    dsn = f'SENTRY_DSN = "https://{SENTRY_KEY}@o4507.ingest.sentry.io/42"'
    assert [m.kind for m in find_detectable(config)] == ["docker_registry_auth"]
    assert [m.kind for m in find_detectable(dsn)] == ["dsn_key"]
    redactor = Redactor()
    assert DOCKER_AUTH not in redactor.redact(config)
    assert SENTRY_KEY not in redactor.redact(dsn)
    assert "o4507.ingest.sentry.io/42" in redactor.redact(dsn)
    example = f"https://{SENTRY_KEY}@sentry.example.com/1"
    assert find_redactable(example) == []


def test_the_state_block_is_masked_like_every_published_surface() -> None:
    memory = ReviewMemory(
        head_sha="a" * 40,
        config_hash="c",
        findings=(MemoryEntry(fingerprint="f1", title=f"Key {AWS_ID} committed"),),
    )
    block = render_state(memory)
    assert AWS_ID not in block
    assert "[REDACTED:aws_access_key_id]" in block
