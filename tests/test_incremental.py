"""Incremental re-review on real git history, with the real SDK against the loopback API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from pr_review.config import Config
from pr_review.incremental import decide
from pr_review.packet.state import parse_state, render_state
from pr_review.pipeline import ReviewOutcome, run_review
from pr_review.reviewers.gateway import AnthropicGateway
from pr_review.schema.enums import TrustMode
from pr_review.schema.finding import ReviewStatus
from pr_review.sources.git import GitHistory, read_local_pr
from pr_review.sources.model import PullRequest
from pr_review.synthesis.memory import ReviewMemory
from tests.fakes.anthropic_server import (
    FakeAnthropic,
    RecordedRequest,
    Reply,
    anthropic_server,
    tool_reply,
)
from tests.gitrepo import GitRepo

_FILE = re.compile(r"\+\+\+ b/(\S+)")
_ADDED = re.compile(r"^\s*(\d+) \+")


def _one_finding_per_file(request: RecordedRequest) -> Reply:
    blocks = request.json.get("system", [])
    findings: list[dict[str, Any]] = []
    current = None
    for line in (blocks[-1]["text"] if blocks else "").splitlines():
        if (match := _FILE.search(line)) is not None:
            current = match.group(1)
        elif current and (added := _ADDED.match(line)) is not None:
            findings.append(
                {
                    "title": f"Unchecked input in {current}",
                    "file": current,
                    "line_start": int(added.group(1)),
                    "line_end": int(added.group(1)),
                    "why_it_matters": "A negative amount passes the check.",
                    "evidence_type": "hunk_level_code",
                    "evidence_detail": "no sign check",
                    "confidence": "high",
                    "severity": "high",
                    "action": "fix",
                    "requires_human": False,
                    "category": "correctness",
                }
            )
            current = None
    return tool_reply(request, {"findings": findings})


@pytest.fixture
def server() -> Iterator[FakeAnthropic]:
    with anthropic_server(_one_finding_per_file) as fake:
        yield fake


def _module(name: str, version: int) -> str:
    return "".join(f"def {name}_{i}(x):\n    return x + {i * version}\n\n\n" for i in range(5))


@pytest.fixture
def pr_repo(git_repo: GitRepo) -> GitRepo:
    for name in ("alpha", "beta", "gamma"):
        git_repo.write(f"app/{name}.py", "")
    git_repo.write("app/shared.py", "X = 1\n")
    git_repo.commit("base")
    git_repo.branch("feature")
    for name in ("alpha", "beta", "gamma"):
        git_repo.write(f"app/{name}.py", _module(name, 1))
    git_repo.commit("feature")
    return git_repo


def _local(repo: GitRepo) -> PullRequest:
    return read_local_pr(repo.path, "main", "feature", title=None, body="A change.")


def _review(
    repo: GitRepo,
    server: FakeAnthropic,
    previous: ReviewMemory | None = None,
    *,
    config: Config | None = None,
    force: bool = False,
) -> ReviewOutcome:
    pr = _local(repo)
    with AnthropicGateway("k", base_url=server.base_url, max_retries=0, timeout=10) as gw:
        return run_review(
            pr,
            config or Config(),
            trust_mode=TrustMode.UNTRUSTED,
            model=gw,
            previous=previous,
            history=GitHistory(repo.path),
            force=force,
        )


def _shown(server: FakeAnthropic) -> set[str]:
    return {m.group(1) for r in server.requests for m in _FILE.finditer(r.text)}


def _reviewer_files(outcome: ReviewOutcome) -> dict[str, ReviewStatus | None]:
    return {
        f.file: f.review_status
        for f in outcome.findings
        if not f.suppressed and f.source.value == "fresh_eyes"
    }


def test_a_push_sends_only_the_changed_file_and_keeps_the_others_findings(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    first = _review(pr_repo, server)
    assert _shown(server) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    assert set(_reviewer_files(first)) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    pr_repo.write("app/beta.py", _module("beta", 1) + "def extra(x):\n    return -x\n")
    pr_repo.commit("push")
    server.requests.clear()
    # Through the packet comment's state block, as the Action reads it.
    state = parse_state(render_state(first.memory))
    second = _review(pr_repo, server, state)
    assert _shown(server) == {"app/beta.py"}
    statuses = _reviewer_files(second)
    assert set(statuses) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    assert statuses["app/alpha.py"] is ReviewStatus.STILL_OPEN
    assert statuses["app/gamma.py"] is ReviewStatus.STILL_OPEN
    assert second.meta.rereview.startswith("re-reviewed 1 of 3 file(s)")
    assert second.meta.files_not_reviewed == ()  # untouched files were reviewed last time
    assert "Re-review:** re-reviewed 1 of 3" in second.packet_markdown


def test_force_push_config_change_and_force_fall_back_to_a_full_review(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    first = _review(pr_repo, server)
    pr_repo.write("app/alpha.py", _module("alpha", 2))
    pr_repo.run("commit", "-q", "-a", "--amend", "-m", "rewritten")
    server.requests.clear()
    rewritten = _review(pr_repo, server, first.memory)
    assert "not an ancestor" in rewritten.meta.rereview
    assert _shown(server) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    pr_repo.write("app/gamma.py", _module("gamma", 3))
    pr_repo.commit("push")
    forced = _review(pr_repo, server, rewritten.memory, force=True)
    assert forced.meta.rereview == "full review: forced"
    other = Config.model_validate({"reviewers": {"unit_max_lines": 300}})
    changed = _review(pr_repo, server, rewritten.memory, config=other)
    assert changed.meta.rereview == "full review: the configuration changed since the last review"


def test_merging_an_unrelated_base_change_reviews_nothing_again(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    first = _review(pr_repo, server)
    pr_repo.run("checkout", "-q", "main")
    pr_repo.write("app/shared.py", "X = 2\n")
    pr_repo.commit("base changes a file the PR does not touch")
    pr_repo.run("checkout", "-q", "feature")
    pr_repo.run("merge", "-q", "--no-edit", "main")
    server.requests.clear()
    second = _review(pr_repo, server, first.memory)
    assert server.requests == []
    assert second.meta.rereview.startswith("re-reviewed 0 of 3 file(s)")
    assert set(_reviewer_files(second)) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}


def test_base_moved_changing_an_untouched_file_diff_is_detected(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    first = _review(pr_repo, server)
    moved = first.memory.model_copy(update={"base_sha": pr_repo.sha("main")})
    pr_repo.run("checkout", "-q", "main")
    pr_repo.write("app/shared.py", "X = 2\n")
    pr_repo.write("app/beta.py", "def b():\n    return 1\n")
    pr_repo.commit("base moves")
    pr_repo.run("checkout", "-q", "feature")
    pr_repo.write("app/alpha.py", _module("alpha", 5))
    pr_repo.commit("push")
    pr = _local(pr_repo)
    # The diff is taken against the merge base, which did not move: incremental.
    plan = decide(moved, pr, history=GitHistory(pr_repo.path), config_hash=moved.config_hash)
    assert plan.only == frozenset({"app/alpha.py"})
    # A previous review taken against a later base that changed beta: beta's diff changed.
    moved_pr = replace(pr, base_sha=pr_repo.sha("main"))
    plan = decide(moved, moved_pr, history=GitHistory(pr_repo.path), config_hash=moved.config_hash)
    assert plan.only is None
    assert "the base moved and changed 1 file(s)" in plan.note


def test_state_too_large_for_carried_findings_forces_the_next_full_review(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    first = _review(pr_repo, server)
    block = render_state(first.memory, budget=len(render_state(first.memory)) - 10)
    state = parse_state(block)
    assert state is not None
    assert not state.carried_complete
    pr = _local(pr_repo)
    plan = decide(state, pr, history=GitHistory(pr_repo.path), config_hash=state.config_hash)
    assert plan.only is None
    assert "did not all fit" in plan.note


def test_a_file_renamed_since_the_review_is_re_reviewed_and_its_old_findings_dropped(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    """Rename detection would list only the new name as changed: the old name's findings
    would be carried over onto a path the PR no longer has."""
    first = _review(pr_repo, server)
    pr_repo.run("mv", "app/alpha.py", "app/omega.py")
    pr_repo.commit("rename alpha to omega")
    server.requests.clear()
    second = _review(pr_repo, server, first.memory)
    assert _shown(server) == {"app/omega.py"}
    assert second.meta.rereview.startswith("re-reviewed")
    kept = {"app/omega.py", "app/beta.py", "app/gamma.py"}
    assert set(_reviewer_files(second)) == kept
    # Not carried at all (not even as a suppressed finding on a deleted file), nor remembered.
    assert all(f.file != "app/alpha.py" for f in second.findings)
    assert {c.file for c in second.memory.carried} == kept
    assert "2 model finding(s) on untouched files carried over" in second.meta.rereview


def test_an_unknown_or_collected_reviewed_head_gets_a_full_review(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    """A --previous from another repository, or an old head a force-push let git collect."""
    first = _review(pr_repo, server)
    pr_repo.write("app/beta.py", _module("beta", 7))
    pr_repo.commit("push")
    for head in ("0" * 40, "not-a-sha --output=/tmp/x"):
        gone = first.memory.model_copy(update={"head_sha": head})
        history = GitHistory(pr_repo.path)
        plan = decide(gone, _local(pr_repo), history=history, config_hash=gone.config_hash)
        assert plan.only is None
        assert plan.carried == ()
        assert "or is not in this repository" in plan.note


def test_a_rewritten_base_branch_gets_a_full_review(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    """The base the last review started from is no longer an ancestor of the new base (the
    base branch was force-pushed), though the reviewed head is an ancestor of the new head."""
    pr_repo.run("checkout", "-q", "main")
    pr_repo.write("app/shared.py", "X = 2\n")
    pr_repo.commit("base moves")
    pr_repo.run("checkout", "-q", "feature")
    pr_repo.run("merge", "-q", "--no-edit", "main")
    first = _review(pr_repo, server)
    pr_repo.run("checkout", "-q", "main")
    pr_repo.write("app/shared.py", "X = 1\n")
    pr_repo.write("app/other.py", "Y = 1\n")
    pr_repo.run("add", "-A")
    pr_repo.run("commit", "-q", "--amend", "-m", "base rewritten")
    pr_repo.run("checkout", "-q", "feature")
    pr_repo.run("merge", "-q", "--no-edit", "main")
    server.requests.clear()
    second = _review(pr_repo, server, first.memory)
    assert second.meta.rereview == "full review: the previous base commit is no longer reachable"
    assert _shown(server) == {"app/alpha.py", "app/beta.py", "app/gamma.py", "app/shared.py"}


def test_files_no_model_saw_last_time_are_reviewed_on_the_next_push(
    pr_repo: GitRepo, server: FakeAnthropic
) -> None:
    """The last review had no model (no key, e.g. a fork PR) or a cap left files out: those
    files were never reviewed, so the next review sends them too, not only what changed."""
    pr = _local(pr_repo)
    keyless = run_review(pr, Config(), trust_mode=TrustMode.UNTRUSTED, model=None)
    assert set(keyless.memory.unreviewed) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    pr_repo.write("app/beta.py", _module("beta", 4))
    pr_repo.commit("push")
    state = parse_state(render_state(keyless.memory))
    second = _review(pr_repo, server, state)
    assert _shown(server) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}
    assert "2 not reviewed by a model last time" in second.meta.rereview
    assert second.memory.unreviewed == ()
    # A cap that leaves files out: they are listed in the state, and come back next time.
    server.requests.clear()
    capped = Config.model_validate({"reviewers": {"max_input_tokens": 1}})
    third = _review(pr_repo, server, None, config=capped)
    assert server.requests == []
    assert set(third.memory.unreviewed) == {"app/alpha.py", "app/beta.py", "app/gamma.py"}


def test_a_state_too_large_for_its_unreviewed_list_asks_for_a_full_review() -> None:
    """Past the state's budget the list of files no model saw cannot be kept: the next review
    must not take the missing ones as reviewed, so it is a full one."""
    memory = ReviewMemory(
        head_sha="a" * 40, config_hash="c", unreviewed=tuple(f"src/m{i}.py" for i in range(2000))
    )
    state = parse_state(render_state(memory))
    assert state is not None
    assert state.unreviewed == ()
    assert not state.carried_complete
    small = parse_state(render_state(memory.model_copy(update={"unreviewed": ("src/a.py",)})))
    assert small is not None
    assert small.unreviewed == ("src/a.py",)
    assert small.carried_complete
