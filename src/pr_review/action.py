"""``pr-review action``: the GitHub Action entry point.

One run: read the event, decide whether and what to review, create the gate check
``in_progress``, review the PR (data from the API and the base branch; PR code runs only in
trusted mode), check that the head did not move meanwhile, then publish the packet comment,
inline comments, gate, annotations, job summary and outputs. A head already reviewed with the
same configuration is not reviewed again (unless ``force``): only the gate is re-evaluated, so
an acknowledgment releases a red lane without a new review.

Exit codes: 0 done (whatever the lane); 1 a user or GitHub error (0 instead when
``fail_on_error`` is false), or a blocking red lane that no check run or status could carry.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from pr_review import process
from pr_review.action_config import load_base_config
from pr_review.action_inputs import ActionInputs, RunnerEnv, read_inputs
from pr_review.action_review import Context, Review, ReviewRequest, run_and_publish
from pr_review.config import Config
from pr_review.errors import ReviewError, UserError
from pr_review.packet.neutralize import inline
from pr_review.publish import comment as packet_comment
from pr_review.publish import gate
from pr_review.publish import workflow as wf
from pr_review.publish.report import job_summary
from pr_review.schema.enums import TrustMode
from pr_review.sources.event import Ignored, Trigger, TriggerKind, load_payload, read_trigger
from pr_review.sources.github import GitHubApi, GitHubSettings, connect
from pr_review.sources.github_models import Pull
from pr_review.sources.github_pr import is_fork

Connect = Callable[[GitHubSettings, str], GitHubApi]
Runner = Callable[..., process.ProcessResult]


def main(
    environ: Mapping[str, str] = os.environ,
    *,
    connect_api: Connect = connect,
    review: Review | None = None,
    run: Runner = process.run,
    out: TextIO | None = None,
) -> int:
    """Run the action; returns the exit code (see the module docstring)."""
    stream = out or sys.stdout
    try:
        env = RunnerEnv.from_environ(environ)
        inputs = read_inputs(environ)
    except UserError as exc:
        wf.notice(str(exc), stream, wf.Level.ERROR)
        return 1
    _mark_safe_directory(env.workspace, environ, run)
    try:
        return _run(env, inputs, connect_api=connect_api, review=review, run=run, out=stream)
    except ReviewError as exc:
        wf.notice(str(exc), stream, wf.Level.ERROR)
        wf.write_summary(env.summary_path, job_summary([f"**failed:** {inline(str(exc))}"], None))
        if isinstance(exc, UserError):
            return 1
        return 1 if inputs.fail_on_error else 0


def _mark_safe_directory(workspace: Path | None, environ: Mapping[str, str], run: Runner) -> None:
    """The workspace belongs to the runner user, the container runs as root: git refuses it
    as "dubious ownership" unless it is marked safe (checkout's own marking does not reach
    the container's HOME)."""
    if workspace is None:
        return
    run(
        ["git", "config", "--global", "--add", "safe.directory", str(workspace)],
        timeout_s=30,
        # The run's own environment: its HOME decides which global config is written.
        env=environ,
    )


def _run(
    env: RunnerEnv,
    inputs: ActionInputs,
    *,
    connect_api: Connect,
    review: Review | None,
    run: Runner,
    out: TextIO,
) -> int:
    trigger = read_trigger(
        env.event_name, load_payload(env.event_path), pr_number=inputs.pr_number, force=inputs.force
    )
    if isinstance(trigger, Ignored):
        return _nothing_to_do(env, trigger.reason, out)
    api = connect_api(GitHubSettings(inputs.github_token, env.api_url), env.repository)
    ctx = Context(env, inputs, api, out, api.identity())
    if trigger.kind is TriggerKind.COMMENT and not _authorized_command(ctx, trigger):
        return 0
    pull = api.pull(trigger.pr_number)
    if pull.state != "open":
        return _nothing_to_do(env, f"pull request #{pull.number} is {pull.state}", out)
    automatic = trigger.kind in (TriggerKind.PULL_REQUEST, TriggerKind.PULL_REQUEST_TARGET)
    if automatic and pull.draft and not inputs.review_drafts:
        return _nothing_to_do(
            env, f"#{pull.number} is a draft (set review_drafts: true to review drafts)", out
        )
    return _review_or_regate(ctx, trigger, pull, review, run)


def _authorized_command(ctx: Context, trigger: Trigger) -> bool:
    """``/review`` is honoured only from people with write access; react to show it was."""
    if trigger.commenter is None or trigger.comment_id is None:
        return False
    if not gate.can_write(ctx.api, trigger.commenter):
        _nothing_to_do(
            ctx.env, f"@{trigger.commenter} has no write access: /review ignored", ctx.out
        )
        return False
    ctx.api.add_reaction(trigger.comment_id, "+1" if trigger.ack_request else "eyes")
    return True


def _review_or_regate(
    ctx: Context, trigger: Trigger, pull: Pull, review: Review | None, run: Runner
) -> int:
    base = load_base_config(ctx.api, pull.base.sha, ctx.inputs.config_path)
    config = _with_model_inputs(base.config, ctx.inputs)
    digest = _digest(base.digest, ctx.inputs)
    existing = packet_comment.find_ours(ctx.api, pull.number, ctx.identity)
    record = existing.record if existing is not None else None
    ack = _acknowledgment(ctx, trigger, pull, record)
    same_head = record is not None and record.head_sha == pull.head.sha
    if same_head and record is not None and record.config_hash == digest and not trigger.force:
        return _regate(ctx, pull, record, existing, ack)
    trusted = trigger.kind is TriggerKind.PULL_REQUEST and not is_fork(pull)
    request = ReviewRequest(
        pull=pull,
        config=config,
        policy_files=base.policy_files,
        config_source=base.source,
        digest=digest,
        trust_mode=TrustMode.TRUSTED if trusted else TrustMode.UNTRUSTED,
        existing=existing,
        ack=ack,
        trigger=trigger,
    )
    return run_and_publish(ctx, request, review=review, run=run)


def _acknowledgment(
    ctx: Context, trigger: Trigger, pull: Pull, record: packet_comment.RunRecord | None
) -> gate.Acknowledgment | None:
    """A verified release of the red lane: label, ``/review ack``, or an earlier ack."""
    author = pull.user.login if pull.user else None
    if trigger.ack_request and trigger.commenter and trigger.commenter != author:
        return gate.Acknowledgment(trigger.commenter, "/review ack")
    if trigger.ack_request:
        wf.notice(f"@{trigger.commenter} is the PR author: /review ack ignored", ctx.out)
    labels = [label.name for label in pull.labels]
    label_ack = gate.label_acknowledgment(ctx.api, pull.number, labels, author)
    if label_ack is not None:
        return label_ack
    if record is not None and record.acknowledged_by and record.head_sha == pull.head.sha:
        return gate.Acknowledgment(record.acknowledged_by, "/review ack")
    return None


def _regate(
    ctx: Context,
    pull: Pull,
    record: packet_comment.RunRecord,
    existing: packet_comment.OurComment | None,
    ack: gate.Acknowledgment | None,
) -> int:
    """Same head, same configuration: no new review, only the gate is re-evaluated."""
    verdict = gate.decide(record.lane, ctx.inputs.mode, ack)
    handle = gate.start(ctx.api, pull.head.sha, details="Re-evaluating the acknowledgment")
    summary = (
        f"**Lane: {record.lane.value}** (from the review of `{record.head_sha[:12]}`); "
        f"{verdict.title}."
    )
    url = existing.html_url if existing else ctx.env.run_url
    handle = gate.finish(ctx.api, handle, verdict, summary=summary, target_url=url)
    acked_by = ack.by if ack is not None and ack.how == "/review ack" else None
    if existing is not None and acked_by != record.acknowledged_by:
        updated = record.model_copy(update={"acknowledged_by": acked_by})
        ctx.api.edit_comment(existing.id, packet_comment.with_record(existing.body, updated))
    lines = [
        (
            f"head `{pull.head.sha[:12]}` was already reviewed with this configuration "
            "(pass force: true to review again)"
        ),
        f"gate: {verdict.conclusion}: {verdict.title}",
    ]
    if handle.problem:
        lines.append(f"gate problem: {inline(handle.problem)}")
    wf.write_summary(ctx.env.summary_path, job_summary(lines, None))
    wf.write_outputs(
        ctx.env.output_path,
        {
            "lane": record.lane.value,
            "findings_count": str(record.findings_count),
            "blocking": str(verdict.blocking and ctx.inputs.mode is gate.Mode.GATE).lower(),
            "packet_path": "",
            "head_sha": pull.head.sha,
        },
    )
    return 1 if handle.kind is gate.GateKind.NONE and verdict.blocking else 0


def _nothing_to_do(env: RunnerEnv, reason: str, out: TextIO) -> int:
    wf.notice(f"pr-review: nothing to do: {reason}", out)
    wf.write_summary(env.summary_path, job_summary([f"nothing to do: {reason}"], None))
    return 0


def _with_model_inputs(config: Config, inputs: ActionInputs) -> Config:
    """The ``model`` / ``challenger_model`` inputs override the configuration's models."""
    if not inputs.model and not inputs.challenger_model:
        return config
    reviewers = config.reviewers
    update: dict[str, object] = {}
    if inputs.model:
        update["fresh_eyes_model"] = inputs.model
    if inputs.challenger_model:
        update["challenger"] = reviewers.challenger.model_copy(
            update={"model": inputs.challenger_model}
        )
    return config.model_copy(update={"reviewers": reviewers.model_copy(update=update)})


def _digest(config_digest: str, inputs: ActionInputs) -> str:
    """The configuration digest, plus the inputs that change what a review says."""
    text = "\0".join((config_digest, inputs.model, inputs.challenger_model))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
