"""Limits and skips are said, never silent: oversize policy files, large files, odd names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pr_review.cli import main
from pr_review.reviewers.gateway import AnthropicGateway
from pr_review.reviewers.policy_judge import MAX_POLICY_FILE_BYTES, load_policies
from pr_review.reviewers.run import run_reviewers
from pr_review.reviewers.settings import ReviewerSettings
from pr_review.schema.run import ReviewerStatus
from pr_review.verifiers import secrets
from tests.fakes.anthropic_server import FakeAnthropic, anthropic_server, by_tool, tool_reply
from tests.gitrepo import GitRepo
from tests.reviewers.builders import make_pack, source_diff

_FILLER = "Every change ships with a test. "


def _policy(context: str) -> str:
    return json.dumps(
        {
            "instruction": "Add tests",
            "relevant_when": "Code changes",
            "context": context,
            "sources": [{"type": "file", "filename": "CONTRIBUTING.md"}],
            "checklist": [
                {"name": "tests-touched", "rule": "A test changes", "relevant_when": "Code"}
            ],
        }
    )


BIG = _policy(_FILLER * (MAX_POLICY_FILE_BYTES // len(_FILLER) + 1))


def test_an_oversize_policy_file_is_refused_by_name() -> None:
    loaded = load_policies({"big.json": BIG, "small.json": _policy("short")})
    assert [name for name, _ in loaded.files] == ["small.json"]
    ((name, problem),) = loaded.problems
    assert name == "big.json"
    assert f"{MAX_POLICY_FILE_BYTES // 1024} KiB cap" in problem
    assert "split it" in problem


@pytest.fixture
def model() -> Iterator[FakeAnthropic]:
    empty = {"findings": [], "injection_attempts": []}
    routes = {"*": lambda r: tool_reply(r, empty)}
    with anthropic_server(by_tool(routes)) as server:
        yield server


def test_an_oversize_policy_file_is_never_sent(model: FakeAnthropic) -> None:
    diff = source_diff()
    with AnthropicGateway("k", base_url=model.base_url, max_retries=0, timeout=10) as gateway:
        outcome = run_reviewers(
            make_pack(diff), diff, ReviewerSettings(), model=gateway,
            policy_files={"big.json": BIG},
        )  # fmt: skip
    (refused,) = [r for r in outcome.runs if r.name == "policy:big.json"]
    assert refused.status is ReviewerStatus.FAILED
    assert "invalid verifier file big.json" in (refused.reason or "")
    assert model.messages_requests, "the reviewers still ran"
    assert all(_FILLER not in r.body.decode() for r in model.messages_requests)
    assert max(len(r.body) for r in model.messages_requests) < MAX_POLICY_FILE_BYTES


def _pack(repo: GitRepo, out: Path) -> dict[str, dict[str, object]]:
    assert main(["pack", "--repo", str(repo.path), "--base", "main", "--out", str(out)]) == 0
    pack = json.loads(out.read_text(encoding="utf-8"))
    return {run["name"]: run for run in pack["verification"]["verifiers"]}


def test_python_files_with_odd_names_are_listed_not_skipped(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.branch("feature")
    for name in ("x\ny.py", "a\\b.py", "ok.py"):
        git_repo.write(name, "import os\n")
    git_repo.commit("odd names")
    runs = _pack(git_repo, tmp_path / "pack.json")
    for tool in ("ruff", "bandit"):
        reason = str(runs[tool]["reason"])
        assert "2 touched Python file(s) not checked" in reason, tool
        assert "newline or backslash" in reason
        assert "'x\\ny.py'" in reason
        assert "'a\\\\b.py'" in reason


def test_files_too_large_for_detect_secrets_are_listed(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "MAX_SCAN_CHARS", 200)
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.branch("feature")
    git_repo.write("data/big.txt", "line of data\n" * 40)
    git_repo.write("data/small.txt", "short\n")
    git_repo.commit("data")
    runs = _pack(git_repo, tmp_path / "pack.json")
    reason = str(runs["secrets"]["reason"])
    assert "1 file(s) over" in reason
    assert "not fully analysed" in reason
    assert reason.endswith("data/big.txt")
