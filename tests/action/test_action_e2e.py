"""End to end: ``python -m pr_review action`` as a subprocess, with the variables GitHub sets,
against the loopback GitHub (real PyGithub, real pipeline, no model key)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pr_review.publish.comment import PACKET_MARKER
from pr_review.publish.gate import ACK_LABEL, CHECK_NAME
from tests.action.scenario import RED_CONFIG, Scenario, action, outputs, summary
from tests.fakes.github_server import FakeGitHub

pytestmark = pytest.mark.slow

GREEN = {"README.md": "# demo\n\nA demo service, now documented.\n"}
RED = {"auth/session.py": "def check(token):\n    return token == 'ok' or token == 'admin'\n"}
# The test repositories skip mypy so that each run takes about a second.
FAST_CONFIG = RED_CONFIG + "verifiers:\n  builtin:\n    mypy: false\n"


def conclusion(gh: FakeGitHub, sha: str) -> str | None:
    (run,) = [r for r in gh.check_runs if r["head_sha"] == sha and r["name"] == CHECK_NAME]
    return run["conclusion"]


def test_green_pr_one_comment_edited_on_the_second_run(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN, config=FAST_CONFIG)
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert len(gh.comments) == 1
    assert gh.comments[0]["body"].startswith(PACKET_MARKER)
    assert conclusion(gh, s.head_sha) == "success"
    assert outputs(env)["lane"] == "green"
    assert "AI reviewers did not run" in gh.comments[0]["body"] or "anthropic" in summary(env)
    again = action(s.env("pull_request", force="true"))
    assert again.returncode == 0, again.stderr
    assert len(gh.comments) == 1
    assert gh.comments[0]["edits"] == 1


def test_red_pr_fails_the_check_until_a_maintainer_acknowledges(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED, config=FAST_CONFIG)
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert conclusion(gh, s.head_sha) == "failure"
    assert outputs(env)["blocking"] == "true"
    labeled = s.payload("pull_request", action="labeled", label={"name": ACK_LABEL})
    gh.label_pull(s.number, ACK_LABEL, s.pull.author)
    assert action(s.env("pull_request", labeled)).returncode == 0
    assert conclusion(gh, s.head_sha) == "failure"
    gh.label_pull(s.number, ACK_LABEL, "maintainer")
    labeled = s.payload("pull_request", action="labeled", label={"name": ACK_LABEL})
    assert action(s.env("pull_request", labeled)).returncode == 0
    assert conclusion(gh, s.head_sha) == "success"
    assert len(gh.comments) == 1


def test_moved_head_publishes_nothing(gh: FakeGitHub, scenario: Callable[..., Scenario]) -> None:
    s = scenario(RED, config=FAST_CONFIG)
    gh.move_head = (1, "e" * 40)
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert gh.comments == []
    assert gh.reviews == []
    assert "head moved" in summary(env)


def test_406_diff_falls_back_and_502_is_retried(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED, config=FAST_CONFIG)
    s.pull.diff_too_large = True
    gh.fail("GET", rf"/pulls/{s.number}/commits$", 502, times=1)
    env = s.env("workflow_dispatch", s.payload("workflow_dispatch"), pr_number=str(s.number))
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert "GitHub refused the whole diff" in summary(env)
    assert len(gh.comments) == 1
    assert conclusion(gh, s.head_sha) == "failure"
    commits = [r for r in gh.requests if r[1].endswith(f"/pulls/{s.number}/commits")]
    assert len(commits) == 2


def test_422_on_the_inline_review_keeps_the_packet(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED, config=FAST_CONFIG)
    gh.fail("POST", rf"/pulls/{s.number}/(reviews|comments)$", 422, times=100)
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert len(gh.comments) == 1
    assert conclusion(gh, s.head_sha) == "failure"
