"""Lane labels end to end: the action keeps exactly one ``pr-review:<lane>`` label on the PR,
creates it with its colour when the repository lacks it, swaps it when a push changes the
lane, leaves other labels alone, and can be switched off. Loopback GitHub, real PyGithub."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pr_review.publish.gate import ACK_LABEL
from tests.action.scenario import Scenario, push, summary
from tests.action.test_action_e2e import FAST_CONFIG, GREEN, action
from tests.fakes.github_server import FakeGitHub

pytestmark = pytest.mark.slow

RISKY = {"app/settings.py": 'AWS_KEY = "' + "AKIA" + 'Q3EXAMPLE7WZ4NRT"\n'}


def _lane_labels(gh: FakeGitHub, s: Scenario) -> list[str]:
    return [name for name in s.pull.labels if name.startswith("pr-review:")]


def test_one_lane_label_created_with_its_colour_and_swapped_when_the_lane_changes(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN, config=FAST_CONFIG)
    s.pull.labels.append("documentation")  # a person's label: never touched
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert _lane_labels(gh, s) == ["pr-review:green"]
    assert gh.labels["pr-review:green"]["color"] == "2da44e"
    assert "pr-review: no change" in gh.labels["pr-review:green"]["description"]
    assert "lane label: created pr-review:green, added pr-review:green" in summary(env)

    push(s, RISKY)
    done = action(s.env("pull_request"))
    assert done.returncode == 0, done.stderr
    assert _lane_labels(gh, s) == ["pr-review:red"]
    assert gh.labels["pr-review:red"]["color"] == "cf222e"
    assert "documentation" in s.pull.labels

    again = action(s.env("pull_request", force="true"))  # same lane: nothing to change
    assert again.returncode == 0, again.stderr
    assert _lane_labels(gh, s) == ["pr-review:red"]
    deletes = [p for m, p in gh.requests if m == "DELETE" and "/labels/" in p]
    assert len(deletes) == 1  # green removed once, nothing since


def test_labels_can_be_switched_off(gh: FakeGitHub, scenario: Callable[..., Scenario]) -> None:
    s = scenario(GREEN, config=FAST_CONFIG + "labels:\n  enabled: false\n")
    done = action(s.env("pull_request"))
    assert done.returncode == 0, done.stderr
    assert _lane_labels(gh, s) == []
    assert not [p for _, p in gh.requests if "/labels" in p]


def test_a_refused_label_is_reported_and_the_review_still_gates(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RISKY, config=FAST_CONFIG)
    gh.fail("POST", r"/labels$", 403, times=5, message="Resource not accessible by integration")
    env = s.env("pull_request")
    done = action(env)
    assert done.returncode == 0, done.stderr
    assert "lane label: not set" in summary(env)
    assert [r["conclusion"] for r in gh.check_runs] == ["failure"]
    assert ACK_LABEL not in s.pull.labels
