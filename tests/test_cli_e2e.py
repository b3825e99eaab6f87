"""The CLI end to end: `pr-review pack` and `pr-review review` as subprocesses.

The example PR of `examples/` is built as a real git repository; the AI reviewers talk to a
loopback server that speaks the Messages API, so the real anthropic SDK path runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.fakes.anthropic_server import (
    RecordedRequest,
    Reply,
    anthropic_server,
    by_tool,
    tool_reply,
)

ROOT = Path(__file__).resolve().parents[1]
PLANTED_KEY = "AKIAQ4NXS7EXAMPLE9ZD"  # the fake AWS key the example PR adds


@pytest.fixture(scope="module")
def example_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled example PR as a git repository (PR branch checked out, base `main`)."""
    dest = tmp_path_factory.mktemp("example") / "shop-api"
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_example.py"), str(dest)],
        check=True,
        capture_output=True,
    )
    return dest


def cli(
    *args: str, env: Mapping[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run `python -m pr_review ARGS` with no Anthropic key unless `env` gives one."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    return subprocess.run(
        [sys.executable, "-m", "pr_review", *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=timeout,
        check=False,
    )


def test_pack_validates_against_exported_schema(example_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "pack.json"
    result = cli("pack", "--repo", str(example_repo), "--base", "main", "--out", str(out))
    assert result.returncode == 0, result.stderr
    pack = json.loads(out.read_text())
    schema = json.loads((ROOT / "schemas" / "evidence-pack.json").read_text())
    jsonschema.validate(pack, schema)
    assert pack["schema_version"] == "1.0"
    assert pack["pr"]["title"] == "Add nightly order export"  # head subject by default
    names = {v["name"]: v["status"] for v in pack["verification"]["verifiers"]}
    assert names["bandit"] == "fail"
    assert names["secrets"] == "fail"
    assert pack["verification"]["summary"]["failed"] >= 2
    assert PLANTED_KEY not in json.dumps(pack["verification"])
    assert pack["risk"]["lane"] == "red"


def test_review_offline_writes_every_output(example_repo: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    sarif = tmp_path / "findings.sarif"
    result = cli(
        "review", "--repo", str(example_repo), "--base", "main", "--body",
        "Sortable order list and a nightly export.", "--out-dir", str(out_dir),
        "--sarif", str(sarif), "--format", "markdown",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "<!-- pr-review-guardrails:packet -->"
    assert "AI reviewers did not run" in result.stdout
    for name in ("evidence-pack.json", "findings.json", "verdicts.json", "packet.md"):
        assert (out_dir / name).is_file(), name
    findings = json.loads((out_dir / "findings.json").read_text())
    assert any(f["origin"] == "bandit" and f["rule_id"] == "B602" for f in findings)
    assert all("suppressed" in f and "merged_confidence" in f for f in findings)
    assert json.loads(sarif.read_text())["version"] == "2.1.0"
    assert "reading main...HEAD" in result.stderr  # progress on stderr


def test_fail_on_lane_exits_3(example_repo: Path) -> None:
    result = cli("review", "--repo", str(example_repo), "--base", "main", "--fail-on-lane", "red")
    assert result.returncode == 3


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--base", "no-such-ref"), "no-such-ref"),
        (("--base", "main", "--config", "/nonexistent/config.yml"), "--config"),
    ],
)
def test_user_errors_are_one_line_exit_1(
    example_repo: Path, args: tuple[str, ...], expected: str
) -> None:
    result = cli("pack", "--repo", str(example_repo), *args)
    assert result.returncode == 1
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1


def test_not_a_repository_is_a_user_error(tmp_path: Path) -> None:
    result = cli("pack", "--repo", str(tmp_path), "--base", "main")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_bad_config_names_file_and_key(example_repo: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.yml"
    config.write_text("risk:\n  lanes: red\n")
    result = cli("pack", "--repo", str(example_repo), "--base", "main", "--config", str(config))
    assert result.returncode == 1
    assert str(config) in result.stderr
    assert "risk.lanes" in result.stderr


def test_usage_error_exits_2() -> None:
    assert cli("pack").returncode == 2


def _finding(request: RecordedRequest) -> Reply:
    return tool_reply(
        request,
        {
            "findings": [
                {
                    "title": "Order list sorts by a caller-chosen column spliced into SQL",
                    "file": "src/shop/db/orders.py",
                    "line_start": 16,
                    "why_it_matters": "`sort` and `direction` come from query parameters and are "
                    "formatted into the ORDER BY clause, so any caller can inject SQL.",
                    "evidence_type": "hunk_level_code",
                    "evidence_detail": "orders.py:16 builds the query with an f-string.",
                    "confidence": "high",
                    "severity": "high",
                    "action": "fix",
                    "requires_human": False,
                    "category": "security",
                }
            ],
            "injection_attempts": [],
        },
    )


def _challenge(request: RecordedRequest) -> Reply:
    return tool_reply(request, {"findings": [], "injection_attempts": []})


@pytest.fixture
def fake_anthropic() -> Iterator[Any]:
    with anthropic_server(
        by_tool({"submit_review": _finding, "submit_challenge": _challenge})
    ) as server:
        yield server


def test_review_with_model_lands_findings_and_never_sends_the_secret(
    example_repo: Path, tmp_path: Path, fake_anthropic: Any
) -> None:
    out_dir = tmp_path / "out"
    result = cli(
        "review", "--repo", str(example_repo), "--base", "main", "--out-dir", str(out_dir),
        env={"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake_anthropic.base_url},
    )
    assert result.returncode == 0, result.stderr
    requests = fake_anthropic.messages_requests
    tools = {r.tool_name for r in requests}
    assert "submit_review" in tools
    assert "submit_challenge" in tools  # red lane: the challenger runs
    for request in requests:
        assert PLANTED_KEY.encode() not in request.body
    findings = json.loads((out_dir / "findings.json").read_text())
    fresh = [f for f in findings if f["source"] == "fresh_eyes"]
    assert fresh
    assert fresh[0]["file"] == "src/shop/db/orders.py"
    packet = (out_dir / "packet.md").read_text()
    assert "fresh_eyes" in packet or "fresh-eyes" in packet


def test_verifiers_init_writes_a_valid_policy_file(tmp_path: Path) -> None:
    from pr_review.schema.policy import PolicyFile

    target = tmp_path / "verifiers"
    result = cli("verifiers", "init", "--dir", str(target))
    assert result.returncode == 0, result.stderr
    written = list(target.glob("*.json"))
    assert len(written) == 1
    PolicyFile.model_validate_json(written[0].read_text())
    again = cli("verifiers", "init", "--dir", str(target))
    assert again.returncode == 1  # never overwrites
    assert "Traceback" not in again.stderr


def test_verifiers_extract_without_key_is_a_user_error(tmp_path: Path) -> None:
    doc = tmp_path / "CONTRIBUTING.md"
    doc.write_text("Always add tests.\n")
    result = cli("verifiers", "extract", str(doc), "--dir", str(tmp_path / "v"))
    assert result.returncode == 1
    assert "ANTHROPIC_API_KEY" in result.stderr


def test_verdicts_aggregate_rolls_up_review_outputs(tmp_path: Path) -> None:
    from pr_review.schema.verdicts import VerdictAggregate

    meta = {
        "model": "claude-haiku-4-5", "started_at": "2026-01-01T00:00:00Z",
        "completed_at": "2026-01-01T00:00:01Z", "duration_ms": 1000, "input_tokens": 100,
        "output_tokens": 10, "token_source": "api", "transcript_chars": 400, "checks_count": 1,
    }
    for i, passed in enumerate((True, False)):
        run = tmp_path / f"run{i}"
        run.mkdir()
        verdict = {
            "session_file": f"o/r#{i}@abc", "agent": "pr-review",
            "instructions": [{
                "file": "tests.json", "instruction": "Add tests", "tile": ".pr-review",
                "relevant": True,
                "checks": [{"name": "has-tests", "applicable": True, "passed": passed,
                            "confidence": "high", "evidence": "tests/test_x.py:1"}],
            }],
            "_meta": meta,
        }
        (run / "verdicts.json").write_text(json.dumps(verdict))
    out = tmp_path / "aggregate.json"
    result = cli("verdicts", "aggregate", str(tmp_path), "--out", str(out))
    assert result.returncode == 0, result.stderr
    aggregate = VerdictAggregate.model_validate_json(out.read_text())
    assert aggregate.sessions_count == 2
    check = aggregate.tiles[".pr-review"].instructions["tests.json"].checks["has-tests"]
    assert (check.applicable_count, check.passed_count, check.pass_rate) == (2, 1, 0.5)


def test_previous_without_a_state_file_is_a_one_line_user_error(
    example_repo: Path, tmp_path: Path
) -> None:
    repo = str(example_repo)
    result = cli("review", "--repo", repo, "--base", "main", "--previous", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "no review-state.json" in result.stderr


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda d: d / "missing", "no such directory"),
        (lambda d: (d / "a-file").write_text("x") and d / "a-file", "not a directory"),
        (lambda d: _state(d, '{"head_sha": '), "review-state.json is not valid JSON"),
        (lambda d: _state(d, "[1, 2]"), "is not a review state written by pr-review"),
        (lambda d: _state(d, '{"head_sha": 7}'), "is not a review state written by pr-review"),
        (lambda d: _state(d, '{"version": 9}'), "has format version 9, newer than"),
        (lambda d: _state(d, b"\xff\xfe"), "review-state.json is unreadable"),
    ],
    ids=["missing", "file", "corrupt", "not-an-object", "bad-field", "newer", "binary"],
)
def test_a_bad_previous_is_a_one_line_user_error(
    example_repo: Path, tmp_path: Path, make: Callable[[Path], Path], says: str
) -> None:
    previous = make(tmp_path)
    repo = str(example_repo)
    result = cli("review", "--repo", repo, "--base", "main", "--previous", str(previous))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1, result.stderr
    assert says in result.stderr
    assert "Traceback" not in result.stderr


def _state(directory: Path, content: str | bytes) -> Path:
    path = directory / "run" / "review-state.json"
    path.parent.mkdir()
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path.parent


def test_previous_run_state_is_written_and_read_back(
    example_repo: Path, tmp_path: Path, fake_anthropic: Any
) -> None:
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake_anthropic.base_url}
    first = tmp_path / "first"
    args = ("review", "--repo", str(example_repo), "--base", "main", "--format", "markdown")
    assert cli(*args, "--out-dir", str(first), env=env).returncode == 0
    state = json.loads((first / "review-state.json").read_text())
    assert state["head_sha"]
    assert state["carried"]
    again = cli(*args, "--previous", str(first), env=env)
    assert again.returncode == 0, again.stderr
    assert "full review: same head as the last review" in again.stdout
