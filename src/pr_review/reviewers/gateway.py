"""The Anthropic model gateway: the only module that imports :mod:`anthropic`.

Structured output is a forced tool whose ``input_schema`` is the pydantic model's JSON
Schema. The answer is validated with pydantic; an invalid answer gets exactly one corrective
retry (the validation error goes back as a ``tool_result`` with ``is_error``), then
:class:`ModelOutputInvalid`. Nothing is repaired by pattern matching. Retries on 429, 5xx
and 529 are the SDK's own (``max_retries``, honouring ``retry-after``); what is left after
them becomes :class:`ModelUnavailable`. Every call, failed or not, is a :class:`ModelCall`.

This module is the one redaction boundary: every request, whatever its purpose (reviewers,
policy judge, tie-break, grader, comparator, any later caller), is built here and passes
through the gateway's :class:`Redactor` as a whole (system blocks, messages, tool results,
tool names, descriptions and schemas) immediately before the SDK call. Callers may redact
earlier too; nothing they build can skip this step, because nothing else calls the SDK.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypedDict, TypeVar, assert_never

import anthropic
from anthropic.types import (
    ContentBlockParam,
    Message,
    MessageParam,
    TextBlockParam,
    ToolChoiceToolParam,
    ToolParam,
)
from pydantic import BaseModel, ValidationError

from pr_review.reviewers.credentials import env_value as _get
from pr_review.reviewers.credentials import missing_credentials
from pr_review.reviewers.interface import (
    ModelOutputInvalid,
    ModelRequest,
    ModelResult,
    ModelUnavailable,
    StructuredModel,
    ToolSpec,
    describe_validation_error,
)
from pr_review.reviewers.redact import Redactor
from pr_review.reviewers.settings import (
    DEFAULT_PRICES,
    ModelPrice,
    Provider,
    ReviewerSettings,
    call_cost,
    price_for,
)
from pr_review.schema.run import ModelCall

T = TypeVar("T", bound=BaseModel)

DEFAULT_BASE_URL = "https://api.anthropic.com"
_MAX_ERROR_CHARS = 300


class _Outgoing(TypedDict):
    """Every PR-derived part of one request, redacted together."""

    system: list[TextBlockParam]
    messages: list[MessageParam]
    tools: list[ToolParam]


ClientFactory = Callable[..., anthropic.Anthropic]
SdkClient = anthropic.Anthropic | anthropic.AnthropicBedrock | anthropic.AnthropicVertex


class AnthropicGateway:
    """:class:`StructuredModel` over the Anthropic Messages API."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str | None = None,
        max_retries: int = 3,
        timeout: float = 300.0,
        prices: Mapping[str, ModelPrice] | None = None,
        client_factory: ClientFactory = anthropic.Anthropic,
        clock: Callable[[], float] = time.monotonic,
        client: SdkClient | None = None,
        model_map: Mapping[str, str] | None = None,
        redactor: Redactor | None = None,
    ) -> None:
        """Build the SDK client; ``base_url=None`` lets the SDK apply its own resolution.

        ``client`` is a ready SDK client (Bedrock, Vertex); ``model_map`` turns our model ids
        into the provider's (costs stay priced under our ids). ``redactor`` is applied to
        every request (a fresh one, with the pattern rules, when not given); its registry of
        values lives as long as the gateway, so a value seen in one request is redacted in
        every later one.
        """
        self._redactor = redactor if redactor is not None else Redactor()
        self._client: SdkClient = (
            client
            if client is not None
            else client_factory(
                api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout
            )
        )
        self._models = dict(model_map or {})
        self._prices = dict(prices) if prices is not None else dict(DEFAULT_PRICES)
        self._clock = clock

    def learn_secrets(self, redactor: Redactor) -> None:
        """Redact, in every later request, the values a run found (the secrets verifier's
        findings included, which the pattern rules alone may not recognize)."""
        self._redactor.absorb(redactor)

    def close(self) -> None:
        """Close the SDK's connection pool."""
        self._client.close()

    def __enter__(self) -> AnthropicGateway:
        """Use as a context manager that closes the connections at the end."""
        return self

    def __exit__(self, *_exc: object) -> None:
        """Close the connections."""
        self.close()

    @property
    def base_url(self) -> str:
        """Where requests go (for messages that name the endpoint)."""
        return str(self._client.base_url)

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        """Ask once, correct once, validate; see the module docstring."""
        calls: list[ModelCall] = []
        messages: list[MessageParam] = [
            {"role": "user", "content": [{"type": "text", "text": request.prompt}]}
        ]
        for attempt in (1, 2):
            message = self._send(request, output, messages, attempt, calls)
            tool_input, tool_id = _forced_tool_input(message, request.tool_name)
            problem = _problem_without_tool(message, request.tool_name)
            if tool_id is not None:
                try:
                    value = output.model_validate(tool_input)
                except ValidationError as exc:
                    problem = describe_validation_error(exc)
                else:
                    return ModelResult(value=value, calls=tuple(calls))
            calls[-1] = calls[-1].model_copy(update={"ok": False, "error": f"invalid: {problem}"})
            if attempt == 2:
                raise ModelOutputInvalid(
                    f"{request.purpose}: the model's output was invalid after one corrective "
                    f"retry ({_clip(problem)})",
                    calls=tuple(calls),
                )
            messages = _with_correction(request, message, tool_id, problem)
        raise AssertionError("unreachable")  # pragma: no cover (the loop returns or raises)

    def _send(
        self,
        request: ModelRequest,
        output: type[BaseModel],
        messages: list[MessageParam],
        attempt: int,
        calls: list[ModelCall],
    ) -> Message:
        """One Messages API call (with the SDK's retries); records it in ``calls``."""
        started = self._clock()
        choice: ToolChoiceToolParam = {
            "type": "tool",
            "name": request.tool_name,
            "disable_parallel_tool_use": True,
        }
        outgoing = _Outgoing(
            system=_system_blocks(request), messages=messages, tools=_tools(request, output)
        )
        safe = self._redactor.redact_payload(outgoing)
        try:
            message: Message = self._client.messages.create(
                model=self._models.get(request.model, request.model),
                max_tokens=request.max_tokens,
                system=safe["system"],
                messages=safe["messages"],
                tools=safe["tools"],
                tool_choice=choice,
            )
        except anthropic.AnthropicError as exc:
            reason = _unavailable_reason(exc, request.model, self.base_url)
            calls.append(
                ModelCall(
                    reviewer=request.purpose,
                    model=request.model,
                    duration_ms=_ms(self._clock() - started),
                    attempt=attempt,
                    ok=False,
                    error=reason,
                )
            )
            raise ModelUnavailable(f"{request.purpose}: {reason}", calls=tuple(calls)) from exc
        calls.append(self._record(request, message, attempt, self._clock() - started))
        return message

    def _record(
        self, request: ModelRequest, message: Message, attempt: int, seconds: float
    ) -> ModelCall:
        usage = message.usage
        tokens = {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens or 0,
            "cache_read_input_tokens": usage.cache_read_input_tokens or 0,
        }
        return ModelCall(
            reviewer=request.purpose,
            model=request.model,
            duration_ms=_ms(seconds),
            cost_usd=call_cost(price_for(request.model, self._prices), **tokens),
            attempt=attempt,
            **tokens,
        )


def build_gateway(settings: ReviewerSettings, env: Mapping[str, str]) -> StructuredModel | None:
    """The production model from the environment, or None without credentials.

    ``reviewers.provider`` picks the client: the Anthropic API (``ANTHROPIC_API_KEY``,
    ``ANTHROPIC_BASE_URL`` honoured), Amazon Bedrock or Google Vertex AI (their standard
    variables, see :data:`PROVIDER_ENV`). The region, credentials and endpoints come from
    ``env``; :func:`missing_credentials` says what is missing when this returns None.
    """
    if missing_credentials(settings, env) is not None:
        return None
    retries, timeout = settings.max_retries, settings.timeout_seconds
    client: SdkClient | None = None
    match settings.provider:
        case Provider.ANTHROPIC:
            client = anthropic.Anthropic(
                api_key=_get(env, "ANTHROPIC_API_KEY"),
                base_url=_get(env, "ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL,
                max_retries=retries,
                timeout=timeout,
            )
        case Provider.BEDROCK:
            token = _get(env, "AWS_BEARER_TOKEN_BEDROCK")
            client = anthropic.AnthropicBedrock(
                api_key=token,
                aws_access_key=None if token else _get(env, "AWS_ACCESS_KEY_ID"),
                aws_secret_key=None if token else _get(env, "AWS_SECRET_ACCESS_KEY"),
                aws_session_token=None if token else _get(env, "AWS_SESSION_TOKEN"),
                aws_profile=None if token else _get(env, "AWS_PROFILE"),
                aws_region=_get(env, "AWS_REGION") or _get(env, "AWS_DEFAULT_REGION"),
                base_url=_get(env, "ANTHROPIC_BEDROCK_BASE_URL"),
                max_retries=retries,
                timeout=timeout,
            )
        case Provider.VERTEX:
            project = _get(env, "ANTHROPIC_VERTEX_PROJECT_ID") or _get(env, "GOOGLE_CLOUD_PROJECT")
            client = anthropic.AnthropicVertex(
                region=_get(env, "CLOUD_ML_REGION") or "",
                project_id=project if project else anthropic.NOT_GIVEN,
                access_token=_get(env, "GOOGLE_OAUTH_ACCESS_TOKEN"),
                base_url=_get(env, "ANTHROPIC_VERTEX_BASE_URL"),
                max_retries=retries,
                timeout=timeout,
            )
        case _ as unreachable:
            assert_never(unreachable)
    return AnthropicGateway(
        "", client=client, model_map=settings.model_map(), prices=settings.price_table()
    )


def _system_blocks(request: ModelRequest) -> list[TextBlockParam]:
    blocks: list[TextBlockParam] = [{"type": "text", "text": request.system}]
    if request.shared_prefix is not None:
        blocks.append(
            {
                "type": "text",
                "text": request.shared_prefix,
                "cache_control": {"type": "ephemeral"},
            }
        )
    if request.unit_prefix is not None:
        blocks.append(
            {"type": "text", "text": request.unit_prefix, "cache_control": {"type": "ephemeral"}}
        )
    return blocks


def _tools(request: ModelRequest, output: type[BaseModel]) -> list[ToolParam]:
    """The forced tool and its siblings, deduplicated and sorted by name (stable bytes)."""
    specs = {s.name: s for s in request.sibling_tools}
    specs[request.tool_name] = ToolSpec(request.tool_name, request.tool_description, output)
    return [_tool_param(specs[name]) for name in sorted(specs)]


def _tool_param(spec: ToolSpec) -> ToolParam:
    return {
        "name": spec.name,
        "description": spec.description,
        "input_schema": _schema(spec.output),
    }


@cache
def _schema(output: type[BaseModel]) -> dict[str, Any]:
    return output.model_json_schema()


def _forced_tool_input(message: Message, tool_name: str) -> tuple[object, str | None]:
    """The input of the first ``tool_use`` block naming our tool, and its id."""
    for block in message.content:
        if block.type == "tool_use" and block.name == tool_name:
            return block.input, block.id
    return None, None


def _problem_without_tool(message: Message, tool_name: str) -> str:
    if message.stop_reason == "max_tokens":
        return f"the answer was cut off at max_tokens before `{tool_name}` was complete"
    return f"no `{tool_name}` tool call in the answer (stop_reason {message.stop_reason})"


def _with_correction(
    request: ModelRequest, message: Message, tool_id: str | None, problem: str
) -> list[MessageParam]:
    """The first turn, the model's answer, and our correction of it."""
    tool = request.tool_name
    text = (
        f"Your `{tool}` input did not validate: {problem}. Call `{tool}` again with the "
        "complete, corrected input that matches its schema exactly."
    )
    prompt: TextBlockParam = {"type": "text", "text": request.prompt}
    correction: TextBlockParam = {"type": "text", "text": text}
    assistant = [b for b in (_echo(block) for block in message.content) if b is not None]
    if not assistant:
        # Nothing to answer to: restate the task with the correction in the same turn.
        return [{"role": "user", "content": [prompt, correction]}]
    reply: ContentBlockParam = correction
    if tool_id is not None:
        reply = {"type": "tool_result", "tool_use_id": tool_id, "is_error": True, "content": text}
    return [
        {"role": "user", "content": [prompt]},
        {"role": "assistant", "content": assistant},
        {"role": "user", "content": [reply]},
    ]


def _echo(block: object) -> ContentBlockParam | None:
    """A response block as a request block (text and tool_use only)."""
    kind = getattr(block, "type", None)
    if kind == "text":
        return {"type": "text", "text": str(getattr(block, "text", ""))}
    if kind == "tool_use":
        tool_input = getattr(block, "input", {})
        return {
            "type": "tool_use",
            "id": str(getattr(block, "id", "")),
            "name": str(getattr(block, "name", "")),
            "input": tool_input if isinstance(tool_input, dict) else {},
        }
    return None


# Most specific first: OverloadedError is an InternalServerError, APITimeoutError an
# APIConnectionError.
_REASONS: tuple[tuple[type[anthropic.AnthropicError], str], ...] = (
    (anthropic.AuthenticationError, "the API key was rejected (401); check ANTHROPIC_API_KEY"),
    (anthropic.PermissionDeniedError, "the API key may not use this model or endpoint (403)"),
    (
        anthropic.NotFoundError,
        "model `{model}` or the endpoint was not found (404); check the model in the config",
    ),
    (anthropic.RateLimitError, "rate limited (429) after the SDK's retries; try again later"),
    (anthropic.OverloadedError, "the API is overloaded (529) after the SDK's retries"),
    (anthropic.APITimeoutError, "the request to {base_url} timed out"),
    (
        anthropic.APIConnectionError,
        "could not connect to {base_url}; check ANTHROPIC_BASE_URL and the network",
    ),
)


def _unavailable_reason(exc: anthropic.AnthropicError, model: str, base_url: str) -> str:
    """What went wrong, and the fix where there is one."""
    for kind, template in _REASONS:
        if isinstance(exc, kind):
            return template.format(model=model, base_url=base_url)
    if isinstance(exc, anthropic.APIStatusError):
        return f"the API answered {exc.status_code}: {_clip(exc.message)}"
    return f"{type(exc).__name__}: {_clip(str(exc))}"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
