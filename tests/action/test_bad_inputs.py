"""Bad runner inputs end in exit 1 with one line naming the cause and the fix, fast."""

from __future__ import annotations

import io
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pr_review.action import main
from pr_review.errors import GitHubError, UserError
from pr_review.sources.event import load_payload, read_trigger
from pr_review.sources.github import GitHubSettings, connect
from tests.action.scenario import Scenario


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    if not event.exists():
        event.write_text(json.dumps({"action": "opened"}), encoding="utf-8")
    env = {
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "INPUT_GITHUB_TOKEN": "t",
        "RUNNER_TEMP": str(tmp_path),
    }
    env.update(extra)
    return env


def _run(env: dict[str, str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(env, out=out)
    return code, out.getvalue()


@pytest.mark.parametrize("url", ["not a url", "ftp://host/api", "https://", "https://h:99999/"])
def test_malformed_api_url_names_the_variable(tmp_path: Path, url: str) -> None:
    code, out = _run(_env(tmp_path, GITHUB_API_URL=url))
    assert code == 1
    (line,) = out.splitlines()
    assert "GITHUB_API_URL" in line
    assert "https://HOST/api/v3" in line


def test_force_input_states_every_allowed_value(tmp_path: Path) -> None:
    code, out = _run(_env(tmp_path, INPUT_FORCE="maybe"))
    assert code == 1
    assert "yes/no, on/off, 1/0" in out


def test_missing_event_path_is_an_error(tmp_path: Path) -> None:
    env = _env(tmp_path)
    del env["GITHUB_EVENT_PATH"]
    code, out = _run(env)
    assert code == 1
    assert "GITHUB_EVENT_PATH" in out


def test_incomplete_event_payload_is_an_error_not_a_skip() -> None:
    with pytest.raises(UserError, match=r"event payload is incomplete .*GITHUB_EVENT_PATH"):
        read_trigger("pull_request", {"action": "opened"}, pr_number=None, force=False)


def test_non_object_payload_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(UserError, match="not a JSON object"):
        load_payload(path)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback socket that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    sock.close()
    return port


def _fails_fast(port: int) -> str:
    url = f"http://127.0.0.1:{port}/api/v3"
    api = connect(GitHubSettings("t", url), "o/r")
    start = time.monotonic()
    with pytest.raises(GitHubError) as info:
        api.request("GET", "/repos/o/r")
    assert time.monotonic() - start < 15
    return str(info.value)


def test_closed_api_port_fails_fast_and_names_the_variable() -> None:
    message = _fails_fast(_closed_port())
    assert "GITHUB_API_URL" in message
    assert "\n" not in message


def test_silent_api_port_fails_within_15_seconds(silent_port: int) -> None:
    message = _fails_fast(silent_port)
    assert "GITHUB_API_URL" in message


def test_config_path_that_does_not_exist_is_an_error_not_defaults(
    scenario: Callable[..., Scenario],
) -> None:
    """Silently using defaults dropped a red lane to yellow; now it names the input and path."""
    s = scenario({"auth/session.py": "def check(token):\n    return True\n"})
    code, out = _run(s.env("pull_request", config_path=".github/pr-review.yml"))
    assert code == 1
    errors = [line for line in out.splitlines() if "config_path" in line]
    assert len(errors) == 1
    assert "'.github/pr-review.yml'" in errors[0]
    assert s.base_sha[:12] in errors[0]
    assert "commit the file" in errors[0]


@pytest.mark.parametrize("port_kind", ["closed", "silent"])
def test_unreachable_api_fails_the_whole_run_within_15_seconds(
    scenario: Callable[..., Scenario], request: pytest.FixtureRequest, port_kind: str
) -> None:
    """A real event, an API that refuses or never answers: exit 1 naming the variable."""
    s = scenario({"README.md": "# demo\n"})
    port = _closed_port() if port_kind == "closed" else request.getfixturevalue("silent_port")
    env = {**s.env("pull_request"), "GITHUB_API_URL": f"http://127.0.0.1:{port}/api/v3"}
    start = time.monotonic()
    code, out = _run(env)
    assert time.monotonic() - start < 15
    assert code == 1
    (line,) = [x for x in out.splitlines() if "GITHUB_API_URL" in x]
    assert "::error::" in line
