"""The workflow event: which pull request to review, why, and whether to at all.

The payload at ``$GITHUB_EVENT_PATH`` is validated with pydantic (only the fields used; GitHub
sends many more). Events:

* ``pull_request`` / ``pull_request_target``: ``opened``, ``synchronize``, ``reopened``,
  ``ready_for_review`` review the PR; ``labeled``/``unlabeled`` of the acknowledgment label
  re-evaluate the gate. ``pull_request_target`` is data-only (never runs PR code).
* ``workflow_dispatch``: ``pr_number`` (and ``force``) from the action inputs or the
  dispatch inputs.
* ``issue_comment``: a new comment on a PR whose first line is ``/review`` or ``/review ack``
  (the caller checks the commenter's permission through the API).

Anything else is :class:`Ignored` with a reason: a notice, not a failure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from pr_review.errors import UserError

ACK_LABEL = "pr-review/acknowledged"
REVIEW_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
LABEL_ACTIONS = frozenset({"labeled", "unlabeled"})


class TriggerKind(StrEnum):
    """How the run was started."""

    PULL_REQUEST = "pull_request"
    PULL_REQUEST_TARGET = "pull_request_target"
    DISPATCH = "workflow_dispatch"
    COMMENT = "issue_comment"


@dataclass(frozen=True)
class Trigger:
    """A run that concerns one pull request."""

    kind: TriggerKind
    pr_number: int
    action: str = ""
    event_head_sha: str | None = None
    """The head the event saw (a re-run replays the old payload)."""
    force: bool = False
    ack_request: bool = False
    """``/review ack``."""
    commenter: str | None = None
    comment_id: int | None = None
    gate_only: bool = False
    """A label change: re-evaluate the acknowledgment, review only if the head is new."""


@dataclass(frozen=True)
class Ignored:
    """Nothing to do, and why."""

    reason: str


class _Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class _Sha(_Payload):
    sha: str


class _Pull(_Payload):
    number: int
    head: _Sha


class _Label(_Payload):
    name: str


class _PullEvent(_Payload):
    action: str = ""
    pull_request: _Pull
    label: _Label | None = None


class _User(_Payload):
    login: str
    type: str = "User"


class _Comment(_Payload):
    id: int
    body: str | None = None
    user: _User


class _Issue(_Payload):
    number: int
    pull_request: dict[str, object] | None = None


class _CommentEvent(_Payload):
    action: str = ""
    issue: _Issue
    comment: _Comment


class _DispatchEvent(_Payload):
    inputs: dict[str, str | int | bool | None] | None = None


def load_payload(path: Path | None) -> dict[str, object]:
    """The event JSON; a :class:`UserError` when the runner gave none or it is not an object."""
    if path is None:
        raise UserError(
            "GITHUB_EVENT_PATH is not set: `pr-review action` needs the event payload the "
            "runner provides; run it as a step of a GitHub Actions job (or use `pr-review review`)."
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(
            f"cannot read the event payload {path} (GITHUB_EVENT_PATH): {exc}; "
            "point GITHUB_EVENT_PATH at the runner's event JSON file."
        ) from exc
    if not isinstance(data, dict):
        raise UserError(
            f"the event payload {path} (GITHUB_EVENT_PATH) is not a JSON object; "
            "point GITHUB_EVENT_PATH at the runner's event JSON file."
        )
    return data


def read_trigger(
    event_name: str, payload: dict[str, object], *, pr_number: int | None, force: bool
) -> Trigger | Ignored:
    """Decide what this event asks for."""
    try:
        if event_name in (TriggerKind.PULL_REQUEST, TriggerKind.PULL_REQUEST_TARGET):
            return _pull_request(TriggerKind(event_name), _PullEvent.model_validate(payload), force)
        if event_name == TriggerKind.DISPATCH:
            return _dispatch(_DispatchEvent.model_validate(payload), pr_number, force)
        if event_name == TriggerKind.COMMENT:
            return _comment(_CommentEvent.model_validate(payload), force)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(root)"
        raise UserError(
            f"the {event_name} event payload is incomplete (`{where}`: {first['msg']}; "
            f"{exc.error_count()} problem(s)): run on the runner's own event file "
            "(GITHUB_EVENT_PATH), not an edited or truncated copy."
        ) from exc
    return Ignored(
        f"event `{event_name or '(none)'}` is not handled; use pull_request, pull_request_target, "
        "workflow_dispatch or issue_comment"
    )


def _pull_request(kind: TriggerKind, event: _PullEvent, force: bool) -> Trigger | Ignored:
    base = Trigger(
        kind,
        event.pull_request.number,
        action=event.action,
        event_head_sha=event.pull_request.head.sha,
        force=force,
    )
    if event.action in REVIEW_ACTIONS:
        return base
    if event.action in LABEL_ACTIONS and event.label is not None and event.label.name == ACK_LABEL:
        return Trigger(**{**base.__dict__, "gate_only": True})
    return Ignored(f"{kind.value} `{event.action}` does not start a review")


def _dispatch(event: _DispatchEvent, pr_number: int | None, force: bool) -> Trigger | Ignored:
    inputs = event.inputs or {}
    number = pr_number
    if number is None and inputs.get("pr_number") not in (None, ""):
        try:
            number = int(str(inputs["pr_number"]))
        except ValueError:
            raise UserError(
                f"workflow_dispatch input pr_number={inputs['pr_number']!r} is not a number"
            ) from None
    if number is None:
        raise UserError(
            "workflow_dispatch needs the pull request number: pass `pr_number` to the action "
            "(with: pr_number: ${{ inputs.pr_number }})"
        )
    forced = force or str(inputs.get("force", "")).lower() == "true"
    return Trigger(TriggerKind.DISPATCH, number, action="dispatch", force=forced)


def _comment(event: _CommentEvent, force: bool) -> Trigger | Ignored:
    if event.action != "created":
        return Ignored(f"issue_comment `{event.action}`: only new comments are commands")
    if event.issue.pull_request is None:
        return Ignored("the comment is on an issue, not a pull request")
    if event.comment.user.type == "Bot":
        return Ignored("comments by bots are never commands")
    first = (event.comment.body or "").strip().splitlines()[:1]
    words = first[0].split() if first else []
    if not words or words[0] != "/review":
        return Ignored("the comment is not a /review command")
    ack = words[1:2] == ["ack"]
    return Trigger(
        TriggerKind.COMMENT,
        event.issue.number,
        action="ack" if ack else "review",
        force=force or words[1:2] == ["force"],
        ack_request=ack,
        commenter=event.comment.user.login,
        comment_id=event.comment.id,
    )
