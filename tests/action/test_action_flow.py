"""The action's flow in process (real gateway, fake GitHub, stand-in review engine)."""

from __future__ import annotations

import io
from collections.abc import Callable

from pr_review.action import main
from pr_review.publish.comment import PACKET_MARKER
from pr_review.publish.gate import ACK_LABEL, CHECK_NAME
from pr_review.schema.enums import Lane
from tests.action.engine import FakeEngine, finding
from tests.action.scenario import Scenario, outputs, summary
from tests.fakes.github_server import FakeGitHub

GREEN = {"README.md": "# demo\n\nA demo service, documented.\n"}
RED = {
    "auth/session.py": (
        "import hmac\n\ndef check(token):\n    return hmac.compare_digest(token, 'ok')\n"
    )
}


def run(
    s: Scenario,
    engine: FakeEngine,
    event: str = "pull_request",
    payload: dict | None = None,
    **inputs: str,
) -> tuple[int, dict[str, str], str]:
    env = s.env(event, payload, **inputs)
    out = io.StringIO()
    code = main(env, review=engine.engine(), out=out)
    return code, env, out.getvalue()


def check_runs(gh: FakeGitHub, sha: str) -> list[dict]:
    return [r for r in gh.check_runs if r["head_sha"] == sha and r["name"] == CHECK_NAME]


def test_green_pr_gets_one_comment_a_successful_check_and_outputs(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    code, env, _ = run(s, FakeEngine(Lane.GREEN))
    assert code == 0
    assert len(gh.comments) == 1
    assert gh.comments[0]["body"].startswith(PACKET_MARKER)
    (check,) = check_runs(gh, s.head_sha)
    assert (check["status"], check["conclusion"]) == ("completed", "success")
    got = outputs(env)
    assert got["lane"] == "green"
    assert got["blocking"] == "false"
    assert got["head_sha"] == s.head_sha
    assert got["packet_path"].endswith("packet.md")
    spend = (got["estimated_input_tokens"], got["input_tokens"], got["cost_usd"])
    assert spend == ("0", "0", "0.0000")
    assert "Reviewer packet" in summary(env)


def test_second_run_on_the_same_head_does_not_review_again_and_force_edits_the_comment(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    engine = FakeEngine(Lane.GREEN)
    run(s, engine)
    code, env, _ = run(s, engine)
    assert code == 0
    assert len(engine.calls) == 1
    assert "already reviewed" in summary(env)
    run(s, engine, force="true")
    assert len(engine.calls) == 2
    assert len(gh.comments) == 1
    assert gh.comments[0]["edits"] == 1
    assert engine.calls[1]["previous"] is None or engine.calls[1]["previous"].head_sha == s.head_sha


def test_new_head_is_reviewed_and_the_comment_edited(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    engine = FakeEngine(Lane.GREEN)
    run(s, engine)
    s.repo.write("README.md", "# demo\n\nv2\n")
    new_head = s.repo.commit("v2")
    s.pull.head_sha = new_head
    gh.trees[new_head] = dict(gh.trees[s.head_sha])
    run(s, engine)
    assert len(engine.calls) == 2
    assert len(gh.comments) == 1
    assert new_head in gh.comments[0]["body"]
    assert check_runs(gh, new_head)[0]["conclusion"] == "success"


def test_red_lane_fails_the_check_in_gate_mode_and_is_neutral_in_advisory(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    code, env, _ = run(s, FakeEngine(Lane.RED))
    assert code == 0
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "failure"
    assert outputs(env)["blocking"] == "true"
    run(s, FakeEngine(Lane.RED), mode="advisory", force="true")
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "neutral"


def test_ack_label_by_a_maintainer_flips_red_to_success_but_not_by_the_author(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    engine = FakeEngine(Lane.RED)
    run(s, engine)
    gh.label_pull(s.number, ACK_LABEL, "alice")  # the author
    labeled = s.payload("pull_request", action="labeled", label={"name": ACK_LABEL})
    run(s, engine, payload=labeled)
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "failure"
    gh.label_pull(s.number, ACK_LABEL, "maintainer")
    labeled = s.payload("pull_request", action="labeled", label={"name": ACK_LABEL})
    run(s, engine, payload=labeled)
    (check,) = check_runs(gh, s.head_sha)
    assert check["conclusion"] == "success"
    assert "@maintainer" in check["output"]["title"]
    assert len(engine.calls) == 1  # acknowledging never re-reviews


def test_review_ack_comment_from_a_writer_releases_red_and_reacts(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    engine = FakeEngine(Lane.RED)
    run(s, engine)
    reader = gh.add_comment(s.number, "/review ack", "reader")
    code, _, log = run(s, engine, "issue_comment", s.payload("issue_comment", comment=reader))
    assert code == 0
    assert "no write access" in log
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "failure"
    author = gh.add_comment(s.number, "/review ack", "alice")
    run(s, engine, "issue_comment", s.payload("issue_comment", comment=author))
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "failure"
    ack = gh.add_comment(s.number, "/review ack", "admin1")
    run(s, engine, "issue_comment", s.payload("issue_comment", comment=ack))
    (check,) = check_runs(gh, s.head_sha)
    assert check["conclusion"] == "success"
    assert "@admin1" in check["output"]["title"]
    assert [(r["comment_id"], r["content"]) for r in gh.reactions] == [
        (author["id"], "+1"),
        (ack["id"], "+1"),
    ]
    # The acknowledgment is remembered for this head.
    run(s, engine, "workflow_dispatch", s.payload("workflow_dispatch"), pr_number=str(s.number))
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "success"


def test_review_comment_triggers_a_review_for_writers(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    engine = FakeEngine(Lane.GREEN)
    c = gh.add_comment(s.number, "/review", "maintainer")
    code, _, _ = run(s, engine, "issue_comment", s.payload("issue_comment", comment=c))
    assert code == 0
    assert len(engine.calls) == 1
    assert engine.calls[0]["trust_mode"].value == "untrusted"
    assert gh.reactions[0]["content"] == "eyes"


def test_moved_head_publishes_nothing(gh: FakeGitHub, scenario: Callable[..., Scenario]) -> None:
    s = scenario(RED)

    def push() -> None:
        s.pull.head_sha = "f" * 40

    code, env, log = run(s, FakeEngine(Lane.RED, during=push))
    assert code == 0
    assert gh.comments == []
    assert gh.reviews == []
    assert gh.review_comments == []
    assert "head moved" in summary(env)
    assert "head moved" in log
    assert check_runs(gh, s.head_sha)[0]["conclusion"] == "neutral"


def test_422_on_one_inline_anchor_keeps_the_packet_and_the_other_comments(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    findings = (
        finding("auth/session.py", 1, fp="a"),
        finding("auth/session.py", 4, fp="b"),
        finding("auth/session.py", 99, fp="c"),
    )
    gh.bad_anchor = ("auth/session.py", 4)
    code, env, _ = run(s, FakeEngine(Lane.RED, findings))
    assert code == 0
    assert len(gh.comments) == 1
    assert [(c["path"], c["line"]) for c in gh.review_comments] == [("auth/session.py", 1)]
    text = summary(env)
    assert "1 outside the diff" in text
    assert "1 refused by GitHub" in text
    # A re-review does not repeat the comment that exists.
    gh.bad_anchor = None
    run(s, FakeEngine(Lane.RED, findings), force="true")
    assert sorted(c["line"] for c in gh.review_comments) == [1, 4]


def test_someone_elses_comment_with_the_marker_is_never_edited(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    fake = gh.add_comment(s.number, f"{PACKET_MARKER}\nall good, merge it", "mallory")
    run(s, FakeEngine(Lane.GREEN))
    assert fake["body"].endswith("merge it")
    assert "edits" not in fake
    assert [c["user"]["login"] for c in gh.comments] == ["mallory", "github-actions[bot]"]


def test_check_runs_refused_falls_back_to_a_status(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    gh.check_runs_forbidden = True
    code, env, _ = run(s, FakeEngine(Lane.RED))
    assert code == 0
    assert [st["state"] for st in gh.statuses] == ["pending", "failure"]
    assert all(st["context"] == CHECK_NAME and len(st["description"]) <= 140 for st in gh.statuses)
    assert "commit status" in summary(env)


def test_no_gate_possible_fails_the_job_for_a_blocking_red_lane(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    gh.check_runs_forbidden = gh.statuses_forbidden = True
    code, env, _ = run(s, FakeEngine(Lane.RED))
    assert code == 1
    assert "neither check runs nor commit statuses" in summary(env)
    assert len(gh.comments) == 1  # the packet is still published


def test_drafts_unhandled_events_and_bad_inputs(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    s.pull.draft = True
    engine = FakeEngine(Lane.GREEN)
    code, _, log = run(s, engine)
    assert code == 0
    assert "draft" in log
    assert engine.calls == []
    code, _, log = run(s, engine, "push", {"ref": "refs/heads/main"})
    assert code == 0
    assert "not handled" in log
    code, _, log = run(s, engine, mode="strict")
    assert code == 1
    assert "input `mode`" in log
    assert "advisory, gate" in log
    assert gh.comments == []
    assert gh.check_runs == []


def test_many_findings_are_annotated_in_batches_of_50(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(RED)
    findings = tuple(
        finding("auth/session.py", 1 + i % 4, fp=f"f{i}", title=f"t{i}") for i in range(120)
    )
    code, _, log = run(s, FakeEngine(Lane.RED, findings), inline_comments="false")
    assert code == 0
    (check,) = check_runs(gh, s.head_sha)
    assert len(check["annotations"]) == 120
    assert [len(p["output"]["annotations"]) for p in gh.check_run_patches if "output" in p][
        -3:
    ] == [50, 50, 20]
    assert all(p["output"]["title"] for p in gh.check_run_patches if "output" in p)
    assert log.count("::error ") == 10  # the runner keeps 10 per type per step


def test_the_workspace_is_marked_safe_in_the_runs_own_home(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(GREEN)
    env = s.env("pull_request")
    main(env, review=FakeEngine(Lane.GREEN).engine(), out=io.StringIO())
    gitconfig = (s.tmp / "home" / ".gitconfig").read_text(encoding="utf-8")
    assert f"directory = {s.repo.path}" in gitconfig
