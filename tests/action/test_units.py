"""Pure parts of the action: workflow commands, inputs, events, gate decisions, anchors."""

from __future__ import annotations

import io

import pytest

from pr_review.action_inputs import read_inputs
from pr_review.errors import UserError
from pr_review.publish import workflow as wf
from pr_review.publish.comment import RunRecord, compose, parse_record, with_record
from pr_review.publish.gate import Acknowledgment, Mode, decide
from pr_review.publish.inline import anchor_for
from pr_review.schema.enums import Lane
from pr_review.sources.diff import parse_diff
from pr_review.sources.event import Ignored, Trigger, TriggerKind, read_trigger
from tests.action.engine import finding


def test_annotation_escaping_follows_the_toolkit() -> None:
    line = wf.format_annotation(
        wf.Annotation(wf.Level.ERROR, "50% bad\nnext", title="a: b, c", file="x,y.py", line=3)
    )
    assert line == "::error file=x%2Cy.py,line=3,title=a%3A b%2C c::50%25 bad%0Anext"


def test_at_most_ten_annotations_per_type() -> None:
    out = io.StringIO()
    many = [wf.Annotation(wf.Level.WARNING, f"w{i}") for i in range(15)]
    assert wf.emit_annotations([*many, wf.Annotation(wf.Level.NOTICE, "n")], out) == 11


def test_outputs_use_a_random_delimiter_that_never_occurs_in_values() -> None:
    text = wf.format_outputs({"lane": "red\nx<<EOF"})
    name, delim = text.splitlines()[0].split("<<")
    assert name == "lane"
    assert delim.startswith("ghadelimiter_")
    assert text.splitlines()[-1] == delim
    with pytest.raises(ValueError, match="delimiter"):
        wf.format_outputs({"x": "TOKEN"}, token="TOKEN")


def test_inputs_defaults_hyphen_form_and_errors() -> None:
    inputs = read_inputs({"INPUT_GITHUB-TOKEN": "t", "INPUT_MODE": "", "INPUT_FORCE": "Yes"})
    assert (inputs.github_token, inputs.mode, inputs.force) == ("t", Mode.GATE, True)
    with pytest.raises(UserError, match=r"`post_comment`.*true or false"):
        read_inputs({"INPUT_GITHUB_TOKEN": "t", "INPUT_POST_COMMENT": "maybe"})
    with pytest.raises(UserError, match="`pr_number`"):
        read_inputs({"INPUT_GITHUB_TOKEN": "t", "INPUT_PR_NUMBER": "abc"})
    with pytest.raises(UserError, match="github_token"):
        read_inputs({"INPUT_GITHUB_TOKEN": " "})


def _pr_event(action: str, **extra: object) -> dict[str, object]:
    return {"action": action, "pull_request": {"number": 5, "head": {"sha": "a" * 40}}, **extra}


def test_pull_request_events() -> None:
    got = read_trigger("pull_request", _pr_event("opened"), pr_number=None, force=False)
    assert isinstance(got, Trigger)
    assert got.pr_number == 5
    assert not got.gate_only
    closed = read_trigger("pull_request", _pr_event("closed"), pr_number=None, force=False)
    assert isinstance(closed, Ignored)
    ack = _pr_event("labeled", label={"name": "pr-review/acknowledged"})
    assert read_trigger("pull_request_target", ack, pr_number=None, force=False).gate_only  # type: ignore[union-attr]
    other = _pr_event("labeled", label={"name": "bug"})
    assert isinstance(read_trigger("pull_request", other, pr_number=None, force=False), Ignored)


def test_comment_and_dispatch_events() -> None:
    def comment(body: str, kind: str = "User", pr: bool = True) -> dict[str, object]:
        issue: dict[str, object] = {"number": 9, **({"pull_request": {"url": "u"}} if pr else {})}
        user = {"login": "m", "type": kind}
        return {
            "action": "created",
            "issue": issue,
            "comment": {"id": 1, "body": body, "user": user},
        }

    ack = read_trigger("issue_comment", comment("/review ack\nthanks"), pr_number=None, force=False)
    assert isinstance(ack, Trigger)
    assert ack.ack_request
    assert ack.commenter == "m"
    assert isinstance(
        read_trigger("issue_comment", comment("/reviewer"), pr_number=None, force=False), Ignored
    )
    assert isinstance(
        read_trigger("issue_comment", comment("/review", "Bot"), pr_number=None, force=False),
        Ignored,
    )
    assert isinstance(
        read_trigger("issue_comment", comment("/review", pr=False), pr_number=None, force=False),
        Ignored,
    )
    dispatch = read_trigger(
        "workflow_dispatch",
        {"inputs": {"pr_number": "12", "force": "true"}},
        pr_number=None,
        force=False,
    )
    assert isinstance(dispatch, Trigger)
    assert (dispatch.pr_number, dispatch.force) == (12, True)
    assert dispatch.kind is TriggerKind.DISPATCH
    with pytest.raises(UserError, match="pr_number"):
        read_trigger("workflow_dispatch", {}, pr_number=None, force=False)


@pytest.mark.parametrize(
    ("lane", "mode", "ack", "expected"),
    [
        (Lane.GREEN, Mode.GATE, None, "success"),
        (Lane.YELLOW, Mode.GATE, None, "success"),
        (Lane.RED, Mode.GATE, None, "failure"),
        (Lane.RED, Mode.ADVISORY, None, "neutral"),
        (Lane.RED, Mode.GATE, Acknowledgment("m", "label"), "success"),
    ],
)
def test_gate_decision(lane: Lane, mode: Mode, ack: Acknowledgment | None, expected: str) -> None:
    verdict = decide(lane, mode, ack)
    assert verdict.conclusion == expected
    assert verdict.blocking is (expected == "failure")


def test_run_record_round_trips_and_is_replaced_in_place() -> None:
    record = RunRecord(head_sha="a" * 40, config_hash="h", lane=Lane.RED, findings_count=2)
    body = compose("packet text", record)
    assert body.startswith("<!-- pr-review-guardrails:packet -->\npacket text")
    assert parse_record(body) == record
    acked = record.model_copy(update={"acknowledged_by": "m"})
    assert parse_record(with_record(body, acked)) == acked
    assert with_record(body, acked).count("pr-review-guardrails:run") == 1


DIFF = """\
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -1,3 +1,4 @@
 one
+two
 three
 four
@@ -10,2 +11,2 @@
-old
+new
 end
"""


def test_anchors_must_lie_in_one_hunk() -> None:
    diff = parse_diff(DIFF)
    assert anchor_for(finding("a.py", 2), diff).line == 2  # type: ignore[union-attr]
    assert anchor_for(finding("a.py", 8), diff) is None
    assert anchor_for(finding("b.py", 2), diff) is None
    wide = finding("a.py", 2).model_copy(update={"line_end": 12})
    assert anchor_for(wide, diff) is not None
    assert anchor_for(wide, diff).start_line is None  # type: ignore[union-attr]
