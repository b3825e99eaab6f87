"""The red-lane gate: check run ``pr-review/risk-lane`` on the PR head, or a commit status.

The check run is created ``in_progress`` before the review starts, so a crash leaves it
unfinished, which blocks a required check (fail closed). It then completes ``success`` for
green and yellow, ``failure`` for an unacknowledged red lane in ``gate`` mode (``neutral`` in
``advisory`` mode) and ``success`` naming who acknowledged a red lane.

When the token may not write check runs (fork PRs under ``pull_request`` get a read-only
token), a commit status with the same context is used; when that is refused too, the gate is
``none`` and the caller says so (and fails the job in ``gate`` mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pr_review.errors import GitHubError
from pr_review.schema.enums import Lane
from pr_review.sources.github import GitHubApi

CHECK_NAME = "pr-review/risk-lane"
ACK_LABEL = "pr-review/acknowledged"
WRITE_PERMISSIONS = frozenset({"admin", "maintain", "write"})
ANNOTATION_BATCH = 50
MAX_OUTPUT_CHARS = 65_000
MAX_STATUS_CHARS = 140


class Mode(StrEnum):
    """``advisory``: red is reported (neutral); ``gate``: red fails the check."""

    ADVISORY = "advisory"
    GATE = "gate"


class GateKind(StrEnum):
    """What carries the gate for this run."""

    CHECK_RUN = "check_run"
    STATUS = "status"
    NONE = "none"


@dataclass(frozen=True)
class Acknowledgment:
    """A red lane released by a person with write access who is not the PR author."""

    by: str
    how: str


@dataclass(frozen=True)
class Verdict:
    """The gate's decision."""

    conclusion: str
    """``success``, ``failure`` or ``neutral``."""
    title: str
    blocking: bool


@dataclass(frozen=True)
class GateHandle:
    """The gate of one run: where it is written and why a fallback was taken."""

    kind: GateKind
    sha: str
    run_id: int | None = None
    problem: str | None = None


def decide(lane: Lane, mode: Mode, ack: Acknowledgment | None) -> Verdict:
    """The conclusion for a lane; only the lane and a verified acknowledgment decide it."""
    if lane is Lane.GREEN or lane is Lane.YELLOW:
        return Verdict("success", f"{lane.value} lane", blocking=False)
    if ack is not None:
        return Verdict("success", f"red lane acknowledged by @{ack.by} ({ack.how})", False)
    if mode is Mode.GATE:
        return Verdict(
            "failure",
            f"red lane: needs acknowledgment (label {ACK_LABEL} or `/review ack` "
            "by a maintainer who is not the author)",
            blocking=True,
        )
    return Verdict("neutral", "red lane (advisory mode: not blocking)", blocking=False)


def can_write(api: GitHubApi, login: str) -> bool:
    """True when ``login`` has write, maintain or admin access to the repository."""
    return api.permission(login) in WRITE_PERMISSIONS


def label_acknowledgment(
    api: GitHubApi, number: int, labels: Sequence[str], author: str | None
) -> Acknowledgment | None:
    """The acknowledgment label, if present and last added by a qualified person.

    Who added it comes from the issue events API (the label itself says nothing about who).
    """
    if ACK_LABEL not in labels:
        return None
    adder: str | None = None
    for event in api.issue_events(number):
        if event.label is not None and event.label.name == ACK_LABEL:
            if event.event == "labeled":
                adder = event.actor.login if event.actor else None
            elif event.event == "unlabeled":
                adder = None
    if adder is None or adder == author or not can_write(api, adder):
        return None
    return Acknowledgment(adder, f"label {ACK_LABEL}")


def start(api: GitHubApi, sha: str, *, details: str) -> GateHandle:
    """Create (or find) the check run ``in_progress``; fall back to a pending status."""
    fields = {
        "status": "in_progress",
        "output": {"title": "Review in progress", "summary": details},
    }
    try:
        run = api.create_once(
            lambda: api.find_check_run(sha, CHECK_NAME),
            lambda: api.create_check_run(sha, CHECK_NAME, fields),
        )
        if run.status == "completed":
            run = api.update_check_run(run.id, {**fields, "conclusion": None})
        return GateHandle(GateKind.CHECK_RUN, sha, run.id)
    except GitHubError as exc:
        if exc.status not in (403, 404):
            raise
        problem = f"the token cannot write check runs ({exc.status}); using a commit status"
    return _status(api, sha, "pending", "Review in progress", problem=problem, url=None)


def _status(
    api: GitHubApi, sha: str, state: str, text: str, *, problem: str | None, url: str | None
) -> GateHandle:
    try:
        api.create_status(
            sha,
            state=state,
            context=CHECK_NAME,
            description=_clip(text, MAX_STATUS_CHARS),
            target_url=url,
        )
    except GitHubError as exc:
        if exc.status not in (403, 404):
            raise
        refused = f"the token can write neither check runs nor commit statuses ({exc.status})"
        return GateHandle(GateKind.NONE, sha, problem=refused)
    return GateHandle(GateKind.STATUS, sha, problem=problem)


def finish(
    api: GitHubApi,
    handle: GateHandle,
    verdict: Verdict,
    *,
    summary: str,
    text: str = "",
    annotations: Sequence[dict[str, Any]] = (),
    target_url: str | None = None,
) -> GateHandle:
    """Complete the gate with the verdict; annotations go in batches of 50."""
    if handle.kind is GateKind.NONE or handle.run_id is None:
        if handle.kind is GateKind.NONE:
            return handle
        state = "failure" if verdict.conclusion == "failure" else "success"
        return _status(
            api, handle.sha, state, verdict.title, problem=handle.problem, url=target_url
        )
    output = {
        "title": _clip(verdict.title, 255),
        "summary": _clip(summary, MAX_OUTPUT_CHARS),
        "text": _clip(text, MAX_OUTPUT_CHARS),
    }
    batches = [
        list(annotations[i : i + ANNOTATION_BATCH])
        for i in range(0, len(annotations), ANNOTATION_BATCH)
    ] or [[]]
    api.update_check_run(
        handle.run_id,
        {
            "status": "completed",
            "conclusion": verdict.conclusion,
            "output": {**output, "annotations": batches[0]},
        },
    )
    for batch in batches[1:]:
        # A PATCH replaces the whole output: title, summary and text are sent every time.
        api.update_check_run(handle.run_id, {"output": {**output, "annotations": batch}})
    return handle


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
