"""The one redaction boundary: whatever a caller builds, the request that leaves is redacted."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from pydantic import BaseModel

from pr_review.reviewers.gateway import AnthropicGateway
from pr_review.reviewers.interface import ModelRequest, ToolSpec
from pr_review.reviewers.redact import Redactor
from pr_review.verifiers.secret_patterns import (
    REDACTION_RULES,
    find_redactable,
    is_placeholder,
    placeholder_url_credentials,
)
from tests.fakes.anthropic_server import Script, anthropic_server, tool_reply

# Assembled from pieces at test time: no literal credential sits in the repository.
_GH = "ghp_" + "Zq9" * 12
_PASSWORD = "Wx7" + "-kQ2#pL9!"
_BEARER = "eyQ" + "a1b2c3d4" * 3


class Answer(BaseModel):
    """A tiny structured output."""

    value: int


def _leaks(body: bytes, values: tuple[str, ...]) -> list[str]:
    text = body.decode()
    decoded = json.dumps(json.loads(body), ensure_ascii=False)
    return [v for v in values if v in text or v in decoded or json.dumps(v)[1:-1] in text]


def test_a_request_built_without_any_redaction_leaves_redacted() -> None:
    """Secrets in the system text, prompt, prefixes and a sibling tool's description."""
    request = ModelRequest(
        purpose="tiebreak",
        model="claude-haiku-4-5",
        system=f"rules; Authorization: Bearer {_BEARER}",
        prompt=f"title: Possible hardcoded password: '{_PASSWORD}'\n-DB_PASSWORD = \"{_PASSWORD}\"",
        shared_prefix=f"token {_GH}",
        unit_prefix=json.dumps({"url": "https://x/?p=" + quote(_PASSWORD, safe="")}),
        sibling_tools=(ToolSpec("other", f"see {_GH}", Answer),),
    )
    with (
        anthropic_server(Script(lambda r: tool_reply(r, {"value": 1}))) as server,
        AnthropicGateway("k", base_url=server.base_url, max_retries=0, timeout=10) as gateway,
    ):
        gateway.complete(request, Answer)
    (sent,) = server.messages_requests
    assert _leaks(sent.body, (_GH, _PASSWORD, _BEARER, quote(_PASSWORD, safe=""))) == []
    assert "[REDACTED:keyword_secret#1]" in sent.text
    assert "[REDACTED:github_token#1]" in sent.text


def test_a_value_registered_once_is_replaced_in_every_form() -> None:
    redactor = Redactor()
    redactor.add(f'"{_PASSWORD}"', "db password")
    forms = (
        _PASSWORD,
        f"'{_PASSWORD}'",
        json.dumps(_PASSWORD),
        json.dumps(json.dumps(_PASSWORD)),
        quote(_PASSWORD, safe=""),
        quote(_PASSWORD),
    )
    for form in forms:
        out = redactor.redact(f"x {form} y")
        assert _PASSWORD not in out
        assert quote(_PASSWORD, safe="") not in out
        assert "[REDACTED:db_password#1]" in out


@pytest.mark.parametrize("rule", REDACTION_RULES, ids=lambda r: r.kind)
def test_redaction_rules_carry_their_examples(rule: object) -> None:
    assert hasattr(rule, "matches")
    for example in rule.matches:  # type: ignore[attr-defined]
        assert any(m.kind == rule.kind for m in find_redactable(example))  # type: ignore[attr-defined]
    for example in rule.does_not_match:  # type: ignore[attr-defined]
        assert all(m.kind != rule.kind for m in find_redactable(example))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "value",
    ["xxxx", "changeme", "<token>", "${DB_PASSWORD}", "test-key", "dummy", "settings.TOKEN",
     "pass", "passwd"],
)
def test_placeholders_are_not_secrets(value: str) -> None:
    assert is_placeholder(value)
    assert find_redactable(f'password = "{value}"') == []


def test_the_textbook_url_credentials_are_a_placeholder() -> None:
    # bleach's linkify tests: user:pass on a real host, only reformatted by a PR
    assert placeholder_url_credentials("https://user:pass@ftp.mozilla.org/x/y.exe?a=b")
    assert not placeholder_url_credentials("https://deploy:Xk29fQp7Lm@ftp.mozilla.org/x")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Authorization: Basic " + "dXNlcjpwYXNzd29yZDEy", "authorization_header"),
        ("curl -u deploy:" + _PASSWORD + " https://x", "curl_user_password"),
        ("the db password: " + "Tr0ub4dor3", "keyword_secret"),
        ("postgres://app:" + "Zz9yX8w" + "@db:5432/x", "url_credentials"),
    ],
)
def test_breadth(text: str, kind: str) -> None:
    assert [m.kind for m in find_redactable(text)] == [kind]


def test_values_only_the_run_found_are_redacted_in_every_later_request_of_the_gateway() -> None:
    """A high-entropy value that only detect-secrets flagged (no pattern rule knows it) is
    registered by the run; the tie-break's request, built elsewhere, leaves without it."""
    found_by_scanner = "q7Rz" + "Lm2Xv9Tk4Wp8"
    run = Redactor()
    run.add(f'"{found_by_scanner}"', "Base64 High Entropy String")
    assert find_redactable(f"x = {found_by_scanner}") == []  # no pattern rule knows it
    request = ModelRequest(
        purpose="synthesis",
        model="claude-haiku-4-5",
        system="compare pairs",
        prompt=json.dumps({"title": f"Hard-coded value '{found_by_scanner}' in config"}),
    )
    with (
        anthropic_server(Script(lambda r: tool_reply(r, {"value": 1}))) as server,
        AnthropicGateway("k", base_url=server.base_url, max_retries=0, timeout=10) as gateway,
    ):
        gateway.learn_secrets(run)
        gateway.complete(request, Answer)
    (sent,) = server.messages_requests
    assert _leaks(sent.body, (found_by_scanner,)) == []
    assert "[REDACTED:base64_high_entropy_string#1]" in sent.text
