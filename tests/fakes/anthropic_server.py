"""A loopback HTTP server that speaks the Anthropic Messages API, for tests.

Point the real SDK at it (``base_url`` or ``ANTHROPIC_BASE_URL``) so its request building,
retries and response parsing all run. A test scripts the answers with a *handler*: a function
from the :class:`RecordedRequest` to a :class:`Reply`. Helpers build real response shapes:

* :func:`tool_reply` - a ``tool_use`` answer for the tool the request forced;
* :func:`text_reply` - a plain text answer (no tool call);
* :func:`error_reply` - 429 ``rate_limit_error``, 529 ``overloaded_error`` ... with
  ``retry-after: 0`` and ``retry-after-ms: 1`` so the SDK retries at once;
* :func:`by_tool` / :class:`Script` - route by forced tool name, or replay a queue.

Usage is computed like the API does when a reply does not set it: the blocks up to the last
``cache_control`` breakpoint (tools, then system, then messages) form the cache key; the
first request with a key reports ``cache_creation_input_tokens``, later ones
``cache_read_input_tokens`` (tokens estimated at 4 characters each).

    with anthropic_server(handler) as server:
        gateway = AnthropicGateway("test-key", base_url=server.base_url, max_retries=1)
        ...
        assert server.requests[0].json["model"] == "claude-haiku-4-5"
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received, exactly as sent."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes

    @property
    def json(self) -> dict[str, Any]:
        """The body parsed as JSON (empty dict when it is not JSON)."""
        try:
            data = json.loads(self.body)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    @property
    def tool_name(self) -> str | None:
        """The tool forced by ``tool_choice``, if any."""
        choice = self.json.get("tool_choice") or {}
        name = choice.get("name") if isinstance(choice, dict) else None
        return name if isinstance(name, str) else None

    @property
    def text(self) -> str:
        """Every text the request sends (system and message blocks), joined."""
        data = self.json
        parts: list[str] = []
        system = data.get("system")
        if isinstance(system, str):
            parts.append(system)
        elif isinstance(system, list):
            parts.extend(str(b.get("text", "")) for b in system if isinstance(b, dict))
        for message in data.get("messages", []):
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
                continue
            parts.extend(
                str(block.get("text", "") or block.get("content", "")) for block in content or []
            )
        return "\n".join(parts)


@dataclass(frozen=True)
class Reply:
    """What the server answers: status, JSON body, extra headers, optional delay."""

    body: dict[str, Any]
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


Handler = Callable[[RecordedRequest], Reply]

_ids = itertools.count(1)


def usage(
    input_tokens: int = 100,
    output_tokens: int = 50,
    cache_creation_input_tokens: int = 0,
    cache_read_input_tokens: int = 0,
) -> dict[str, Any]:
    """A ``usage`` object with the fields the API returns."""
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": cache_creation_input_tokens,
        "cache_read_input_tokens": cache_read_input_tokens,
        "cache_creation": {
            "ephemeral_5m_input_tokens": cache_creation_input_tokens,
            "ephemeral_1h_input_tokens": 0,
        },
        "server_tool_use": None,
        "service_tier": "standard",
    }


def message_body(
    request: RecordedRequest,
    content: list[dict[str, Any]],
    *,
    stop_reason: str = "end_turn",
    usage_: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete Messages API response object."""
    body: dict[str, Any] = {
        "id": f"msg_fake{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": request.json.get("model", "claude-fake"),
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
    }
    if usage_ is not None:
        body["usage"] = usage_
    return body


def tool_reply(
    request: RecordedRequest,
    tool_input: Any,
    *,
    tool_name: str | None = None,
    delay_s: float = 0.0,
    usage_: dict[str, Any] | None = None,
) -> Reply:
    """A ``tool_use`` answer for the forced tool (``tool_input`` may be malformed on purpose)."""
    block = {
        "type": "tool_use",
        "id": f"toolu_fake{next(_ids):06d}",
        "name": tool_name or request.tool_name or "submit",
        "input": tool_input,
    }
    body = message_body(request, [block], stop_reason="tool_use", usage_=usage_)
    return Reply(body=body, delay_s=delay_s)


def text_reply(request: RecordedRequest, text: str, *, stop_reason: str = "end_turn") -> Reply:
    """A text-only answer (no tool call)."""
    return Reply(
        body=message_body(request, [{"type": "text", "text": text}], stop_reason=stop_reason)
    )


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def error_reply(status: int, message: str = "scripted error", *, retry_after_ms: int = 1) -> Reply:
    """An API error with the real envelope; ``retry-after`` headers let the SDK retry at once."""
    kind = _ERROR_TYPES.get(status, "api_error")
    body = {"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_fake"}
    headers = {"retry-after": "0", "retry-after-ms": str(retry_after_ms)}
    return Reply(body=body, status=status, headers=headers)


class Script:
    """A handler that answers from a queue of reply factories, in arrival order."""

    def __init__(self, *steps: Callable[[RecordedRequest], Reply]) -> None:
        """``steps`` are used once each; when they run out the server answers 500."""
        self._steps = list(steps)
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Reply:
        """Answer with the next step."""
        with self._lock:
            step = self._steps.pop(0) if self._steps else None
        if step is None:
            return error_reply(500, "the test script ran out of replies")
        return step(request)


def by_tool(routes: Mapping[str, Handler]) -> Handler:
    """A handler that routes on the forced tool name (``"*"`` is the fallback)."""

    def handle(request: RecordedRequest) -> Reply:
        route = routes.get(request.tool_name or "") or routes.get("*")
        if route is None:
            return error_reply(400, f"no scripted route for tool {request.tool_name!r}")
        return route(request)

    return handle


@dataclass
class FakeAnthropic:
    """A running server: where it listens and what it received."""

    base_url: str
    requests: list[RecordedRequest]
    handler: Handler

    @property
    def messages_requests(self) -> list[RecordedRequest]:
        """Only the ``POST /v1/messages`` requests."""
        return [r for r in self.requests if r.method == "POST" and r.path == "/v1/messages"]


class _Cache:
    """Which cache prefixes the fake has already seen (per server)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def usage_for(self, data: dict[str, Any]) -> dict[str, Any]:
        prefix, rest = _split_at_breakpoint(data)
        key = hashlib.sha256((str(data.get("model")) + prefix).encode()).hexdigest()
        prefix_tokens = len(prefix) // 4 if prefix else 0
        with self._lock:
            hit = bool(prefix) and key in self._seen
            if prefix:
                self._seen.add(key)
        return usage(
            input_tokens=max(1, len(rest) // 4),
            output_tokens=200,
            cache_creation_input_tokens=0 if hit else prefix_tokens,
            cache_read_input_tokens=prefix_tokens if hit else 0,
        )


def _split_at_breakpoint(data: dict[str, Any]) -> tuple[str, str]:
    """(text up to and including the last cache_control block, the rest), in API order."""
    blocks: list[dict[str, Any]] = list(data.get("tools") or [])
    system = data.get("system")
    if isinstance(system, list):
        blocks.extend(b for b in system if isinstance(b, dict))
    elif isinstance(system, str):
        blocks.append({"type": "text", "text": system})
    for message in data.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):
            blocks.extend(b for b in content if isinstance(b, dict))
        else:
            blocks.append({"type": "text", "text": str(content)})
    last = max((i for i, b in enumerate(blocks) if b.get("cache_control")), default=-1)
    dump = [json.dumps(b, sort_keys=True) for b in blocks]
    return "".join(dump[: last + 1]), "".join(dump[last + 1 :])


_BEDROCK = re.compile(r"^/model/(?P<model>[^/]+)/invoke$")
_VERTEX = re.compile(
    r"^/projects/[^/]+/locations/[^/]+/publishers/anthropic/models/(?P<model>[^/:]+):rawPredict$"
)


def provider_model(path: str) -> str | None:
    """The model id in a Bedrock ``/model/{id}/invoke`` or Vertex ``…:rawPredict`` path."""
    found = _BEDROCK.match(path) or _VERTEX.match(path)
    return unquote(found.group("model")) if found else None


def _missing_fields(data: dict[str, Any]) -> list[str]:
    return [name for name in ("model", "max_tokens", "messages") if name not in data]


def _make_handler(server: FakeAnthropic, lock: threading.Lock, cache: _Cache) -> type:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Silence the default stderr logging."""

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            recorded = RecordedRequest(
                method="POST",
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=self.rfile.read(length),
            )
            with lock:
                server.requests.append(recorded)
            self._answer(self._reply(recorded))

        def _reply(self, recorded: RecordedRequest) -> Reply:
            model = provider_model(recorded.path)
            if recorded.path != "/v1/messages" and model is None:
                return error_reply(404, f"no route {recorded.path}")
            if model is not None:  # Bedrock and Vertex carry the model in the path
                body = json.dumps({**recorded.json, "model": model}).encode()
                recorded = RecordedRequest(recorded.method, recorded.path, recorded.headers, body)
            missing = _missing_fields(recorded.json)
            if missing:
                return error_reply(400, f"missing fields: {', '.join(missing)}")
            reply = server.handler(recorded)
            if reply.status == 200 and "usage" not in reply.body:
                body = {**reply.body, "usage": cache.usage_for(recorded.json)}
                reply = Reply(body=body, status=200, headers=reply.headers, delay_s=reply.delay_s)
            return reply

        def _answer(self, reply: Reply) -> None:
            if reply.delay_s:
                time.sleep(reply.delay_s)
            payload = json.dumps(reply.body).encode()
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.send_header("request-id", "req_fake")
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

    return _Handler


@contextmanager
def anthropic_server(handler: Handler) -> Iterator[FakeAnthropic]:
    """Run the fake on 127.0.0.1 (a free port) for the duration of the block."""
    state = FakeAnthropic(base_url="", requests=[], handler=handler)
    http = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(state, threading.Lock(), _Cache()))
    http.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{http.server_address[1]}"
    thread = threading.Thread(
        target=http.serve_forever,
        kwargs={"poll_interval": 0.02},
        name="fake-anthropic",
        daemon=True,
    )
    thread.start()
    try:
        yield state
    finally:
        http.shutdown()
        http.server_close()
        thread.join(timeout=5)
