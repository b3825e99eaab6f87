"""The Anthropic gateway against the loopback Messages API (the real SDK path)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from pr_review.reviewers.gateway import AnthropicGateway, build_gateway
from pr_review.reviewers.interface import (
    ModelOutputInvalid,
    ModelRequest,
    ModelUnavailable,
)
from pr_review.reviewers.settings import ReviewerSettings
from tests.fakes.anthropic_server import (
    Script,
    anthropic_server,
    error_reply,
    text_reply,
    tool_reply,
)


class Answer(BaseModel):
    """A tiny structured output."""

    value: int


REQUEST = ModelRequest(
    purpose="test", model="claude-haiku-4-5", system="rules", prompt="task", shared_prefix="P" * 400
)


@pytest.fixture(autouse=True)
def _close_gateways() -> Iterator[None]:
    yield
    while _OPEN:
        _OPEN.pop().close()


_OPEN: list[AnthropicGateway] = []


def _gateway(base_url: str) -> AnthropicGateway:
    gateway = AnthropicGateway("test-key", base_url=base_url, max_retries=2, timeout=10)
    _OPEN.append(gateway)
    return gateway


def test_valid_tool_input_is_returned_with_usage_and_cost() -> None:
    with anthropic_server(Script(lambda r: tool_reply(r, {"value": 3}))) as server:
        result = _gateway(server.base_url).complete(REQUEST, Answer)
    assert result.value == Answer(value=3)
    (call,) = result.calls
    assert call.ok
    assert call.cache_creation_input_tokens > 0
    assert call.cost_usd is not None
    assert call.cost_usd > 0
    sent = server.requests[0].json
    assert sent["tool_choice"] == {
        "type": "tool",
        "name": "submit",
        "disable_parallel_tool_use": True,
    }
    assert sent["tools"][0]["input_schema"] == Answer.model_json_schema()
    assert sent["system"][1] == {
        "type": "text",
        "text": "P" * 400,
        "cache_control": {"type": "ephemeral"},
    }


def test_invalid_output_gets_one_corrective_retry_with_the_error() -> None:
    script = Script(
        lambda r: tool_reply(r, {"value": "many"}), lambda r: tool_reply(r, {"value": 4})
    )
    with anthropic_server(script) as server:
        result = _gateway(server.base_url).complete(REQUEST, Answer)
    assert result.value.value == 4
    assert [c.attempt for c in result.calls] == [1, 2]
    assert not result.calls[0].ok
    correction = server.requests[1].json["messages"]
    assert [m["role"] for m in correction] == ["user", "assistant", "user"]
    assert correction[2]["content"][0]["type"] == "tool_result"
    assert correction[2]["content"][0]["is_error"] is True
    assert "value" in correction[2]["content"][0]["content"]
    assert result.calls[1].cache_read_input_tokens > 0


def test_still_invalid_after_the_retry_raises_with_both_calls() -> None:
    script = Script(lambda r: text_reply(r, "I refuse"), lambda r: tool_reply(r, "not an object"))
    with anthropic_server(script) as server, pytest.raises(ModelOutputInvalid) as caught:
        _gateway(server.base_url).complete(REQUEST, Answer)
    assert len(caught.value.calls) == 2
    assert len(server.requests) == 2


@pytest.mark.parametrize("status", [429, 529, 500])
def test_retryable_errors_are_retried_by_the_sdk(status: int) -> None:
    script = Script(lambda r: error_reply(status), lambda r: tool_reply(r, {"value": 1}))
    with anthropic_server(script) as server:
        result = _gateway(server.base_url).complete(REQUEST, Answer)
    assert result.value.value == 1
    assert [r.headers.get("x-stainless-retry-count") for r in server.requests] == ["0", "1"]


def test_retries_exhausted_is_unavailable_with_a_recorded_failed_call() -> None:
    script = Script(*(lambda r: error_reply(529) for _ in range(3)))
    with anthropic_server(script) as server, pytest.raises(ModelUnavailable) as caught:
        _gateway(server.base_url).complete(REQUEST, Answer)
    assert "529" in str(caught.value)
    assert [c.ok for c in caught.value.calls] == [False]
    assert len(server.requests) == 3


def test_rejected_key_names_the_fix() -> None:
    with (
        anthropic_server(Script(lambda r: error_reply(401))) as server,
        pytest.raises(ModelUnavailable, match="ANTHROPIC_API_KEY"),
    ):
        _gateway(server.base_url).complete(REQUEST, Answer)


def test_unknown_model_has_no_cost() -> None:
    request = ModelRequest(purpose="t", model="claude-unknown-9", system="s", prompt="p")
    with anthropic_server(Script(lambda r: tool_reply(r, {"value": 1}))) as server:
        result = _gateway(server.base_url).complete(request, Answer)
    assert result.calls[0].cost_usd is None


def test_build_gateway_reads_only_the_given_environment() -> None:
    assert build_gateway(ReviewerSettings(), {}) is None
    assert build_gateway(ReviewerSettings(), {"ANTHROPIC_API_KEY": "  "}) is None
    with anthropic_server(Script(lambda r: tool_reply(r, {"value": 2}))) as server:
        env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": server.base_url}
        gateway = build_gateway(ReviewerSettings(), env)
        assert isinstance(gateway, AnthropicGateway)
        _OPEN.append(gateway)
        assert gateway.complete(REQUEST, Answer).value.value == 2
    headers = server.requests[0].headers
    assert "k" in (
        headers.get("x-api-key"),
        headers.get("authorization", "").removeprefix("Bearer "),
    )
