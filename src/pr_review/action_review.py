"""One full review inside the action: gate first, review, race check, then publish.

The gate check is created ``in_progress`` before anything slow, so a crash leaves it blocking.
Before publishing, the PR is read again: if its head moved during the review, nothing is
published (a newer run owns the new head) and the summary says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pr_review.action_inputs import ActionInputs, RunnerEnv
from pr_review.config import Config
from pr_review.errors import GitHubError
from pr_review.packet.neutralize import inline
from pr_review.packet.state import parse_state
from pr_review.process import ProcessResult
from pr_review.publish import comment as packet_comment
from pr_review.publish import dismissals, gate
from pr_review.publish import workflow as wf
from pr_review.publish.inline import InlineResult, publish_inline
from pr_review.publish.labels import apply_lane_label
from pr_review.publish.report import (
    check_annotations,
    check_summary,
    job_summary,
    surfaced,
    workflow_annotations,
)
from pr_review.publish.threads import resolve_fixed
from pr_review.reviewers.interface import StructuredModel
from pr_review.schema.enums import TrustMode
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.run import ReviewMeta
from pr_review.sources.diff import Diff
from pr_review.sources.event import Trigger
from pr_review.sources.github import GitHubApi
from pr_review.sources.github_models import Pull
from pr_review.sources.github_pr import GitHubHistory, read_github_pr
from pr_review.synthesis.memory import ReviewMemory

if TYPE_CHECKING:
    from pr_review.pipeline import ReviewOutcome


@dataclass(frozen=True)
class Review:
    """The review engine: :func:`pr_review.pipeline.run_review` and its output writer."""

    review: Callable[..., ReviewOutcome]
    write_outputs: Callable[[ReviewOutcome, Path], None]


def pipeline_engine() -> Review:
    """The production engine (imported only when a review really runs: the SDKs are heavy)."""
    from pr_review import pipeline  # noqa: PLC0415 (see docstring)

    return Review(pipeline.run_review, pipeline.write_outputs)


@dataclass(frozen=True)
class Context:
    """Everything one run works with."""

    env: RunnerEnv
    inputs: ActionInputs
    api: GitHubApi
    out: TextIO
    identity: str | None


@dataclass(frozen=True)
class ReviewRequest:
    """What to review and with which configuration."""

    pull: Pull
    config: Config
    policy_files: Mapping[str, str]
    config_source: str
    digest: str
    trust_mode: TrustMode
    existing: packet_comment.OurComment | None
    ack: gate.Acknowledgment | None
    trigger: Trigger


def run_and_publish(
    ctx: Context,
    request: ReviewRequest,
    *,
    review: Review | None,
    run: Callable[..., ProcessResult],
) -> int:
    """Review the PR's current head and publish everything; returns the exit code."""
    api, env, inputs, identity, out = ctx.api, ctx.env, ctx.inputs, ctx.identity, ctx.out
    pull = request.pull
    head = pull.head.sha
    handle = gate.start(api, head, details=f"Reviewing `{head[:12]}` ({request.trust_mode.value})")
    pr, source = read_github_pr(api, pull, workspace=_git_workspace(env.workspace), run=run)
    previous = parse_state(request.existing.body) if request.existing is not None else None
    previous, dismissal_note = _with_dismissals(api, pull.number, identity, previous)
    model, skip = _model(request.config, inputs, env)
    # The pipeline (and the model SDK behind it) loads only when a review really runs.
    engine = review or pipeline_engine()
    outcome = engine.review(
        pr,
        request.config,
        trust_mode=request.trust_mode,
        model=model,
        model_skip_reason=skip,
        policy_files=request.policy_files,
        previous=previous,
        history=GitHubHistory(api),
        force=request.trigger.force,
        progress=lambda message: print(f"pr-review: {message}", file=out, flush=True),
    )
    out_dir = env.temp_dir / "pr-review" / str(pull.number)
    engine.write_outputs(outcome, out_dir)
    lines = [
        (
            f"trigger: {request.trigger.kind.value} ({request.trigger.action}); "
            f"trust mode: {request.trust_mode.value}; configuration: {request.config_source}"
        ),
    ]
    if source.note:
        lines.append(f"diff: {source.note}")
    if dismissal_note:
        lines.append(dismissal_note)
    live = api.pull(pull.number)
    if live.head.sha != head:
        return _superseded(ctx, handle, reviewed=head, now=live.head.sha, lines=lines)
    lane = outcome.pack.risk.lane
    verdict = gate.decide(lane, inputs.mode, request.ack)
    shown = surfaced(outcome.findings)
    record = packet_comment.RunRecord(
        head_sha=head,
        config_hash=request.digest,
        lane=lane,
        findings_count=len(shown),
        acknowledged_by=request.ack.by
        if request.ack and request.ack.how == "/review ack"
        else None,
    )
    target = env.run_url
    if inputs.post_comment:
        body = packet_comment.compose(outcome.packet_markdown, record)
        posted = packet_comment.upsert(
            api, pull.number, body, identity=identity, existing=request.existing
        )
        target = posted.html_url or target
        verb = "updated" if request.existing is not None else "posted"
        lines.append(f"packet comment {verb}: {posted.html_url}")
    if inputs.inline_comments:
        lines += _inline(ctx, pull.number, head=head, outcome=outcome, diff=pr.diff)
        lines += _resolve_threads(ctx, pull.number, head, outcome.findings, pr.head_tree.read)
    handle = gate.finish(
        api,
        handle,
        verdict,
        summary=check_summary(outcome.pack.risk, outcome.findings, head),
        text=outcome.packet_markdown,
        annotations=check_annotations(outcome.findings),
        target_url=target,
    )
    lines.append(f"gate ({handle.kind.value}): {verdict.conclusion}: {verdict.title}")
    lines.append(apply_lane_label(api, pull.number, lane, request.config.labels))
    if handle.problem:
        lines.append(f"gate problem: {inline(handle.problem)}")
    wf.emit_annotations(workflow_annotations(outcome.findings), out)
    wf.write_summary(env.summary_path, job_summary(lines, outcome.packet_markdown))
    blocking = verdict.blocking and inputs.mode is gate.Mode.GATE
    wf.write_outputs(
        env.output_path,
        {
            "lane": lane.value,
            "findings_count": str(len(shown)),
            "blocking": str(blocking).lower(),
            "packet_path": str(out_dir / "packet.md"),
            "head_sha": head,
            **cost_outputs(outcome.meta),
        },
    )
    if handle.kind is gate.GateKind.NONE and blocking:
        wf.notice(
            "red lane and no check run or status could be written: failing the job instead",
            out,
            wf.Level.ERROR,
        )
        return 1
    return 0


def _with_dismissals(
    api: GitHubApi, number: int, identity: str | None, previous: ReviewMemory | None
) -> tuple[ReviewMemory | None, str | None]:
    """The previous review's memory with the dismissals read from the PR's threads now."""
    if previous is None:
        return None, None
    try:
        return dismissals.remember(previous, dismissals.collect(api, number, identity)), None
    except GitHubError as exc:  # the review goes on; earlier dismissals still hold
        return previous, f"dismissals: not read ({exc})"


def _resolve_threads(
    ctx: Context,
    number: int,
    head: str,
    findings: Sequence[SynthesizedFinding],
    read: Callable[[str], str | None],
) -> list[str]:
    """Resolve our threads whose findings this push fixed; lines for the job summary."""
    try:
        note = resolve_fixed(ctx.api, number, head, findings, read, identity=ctx.identity)
    except GitHubError as exc:
        note = f"threads: not checked ({exc})"
    return [note] if note else []


def cost_outputs(meta: ReviewMeta) -> dict[str, str]:
    """The model spend outputs: estimated before calling, and actual (empty when unknown)."""
    estimate, actual = meta.estimated_cost_usd, meta.total_cost_usd
    return {
        "estimated_input_tokens": str(meta.estimated_input_tokens),
        "estimated_cost_usd": "" if estimate is None else f"{estimate:.4f}",
        "cost_usd": "" if actual is None else f"{actual:.4f}",
        "input_tokens": str(meta.total_tokens[0]),
    }


def _superseded(
    ctx: Context, handle: gate.GateHandle, *, reviewed: str, now: str, lines: list[str]
) -> int:
    """The head moved during the review: publish nothing; close our in-progress check."""
    api, env, out = ctx.api, ctx.env, ctx.out
    message = (
        f"the head moved from `{reviewed[:12]}` to `{now[:12]}` during the review: "
        "nothing published (the run for the new head publishes)"
    )
    wf.notice(f"pr-review: {message}", out)
    if handle.kind is gate.GateKind.CHECK_RUN:
        # The old head's check no longer gates anything; leave it finished, not in progress.
        gate.finish(
            api,
            handle,
            gate.Verdict("neutral", "superseded: the head moved during the review", False),
            summary=message,
        )
    wf.write_summary(env.summary_path, job_summary([*lines, message], None))
    wf.write_outputs(
        env.output_path,
        {
            "lane": "",
            "findings_count": "0",
            "blocking": "false",
            "packet_path": "",
            "head_sha": now,
        },
    )
    return 0


def _inline(
    ctx: Context, number: int, *, head: str, outcome: ReviewOutcome, diff: Diff
) -> list[str]:
    """Post inline comments; a failure here is reported, never fatal to the packet."""
    try:
        result: InlineResult = publish_inline(
            ctx.api, number, head, outcome.findings, diff, identity=ctx.identity
        )
    except GitHubError as exc:
        return [f"inline comments failed: {exc}"]
    line = f"inline comments: {result.posted} posted, {result.already_commented} already there"
    if result.invalid_anchor:
        line += (
            f", {len(result.invalid_anchor)} outside the diff ({', '.join(result.invalid_anchor)})"
        )
    if result.refused:
        line += f", {len(result.refused)} refused by GitHub ({', '.join(result.refused)})"
    return [line, *result.notes]


def _model(
    config: Config, inputs: ActionInputs, env: RunnerEnv
) -> tuple[StructuredModel | None, str | None]:
    from pr_review.reviewers.settings import Provider  # noqa: PLC0415 (pydantic only)

    if config.reviewers.provider is not Provider.ANTHROPIC:
        from pr_review import pipeline  # noqa: PLC0415 (the model SDK loads only for a review)

        # Bedrock and Vertex read their region and credentials from the runner's environment.
        return pipeline.model_from_env(config, env.provider_env)
    if not inputs.anthropic_api_key:
        return None, (
            "no anthropic_api_key input (secrets are not given to fork PRs): "
            "AI reviewers did not run"
        )
    from pr_review import pipeline  # noqa: PLC0415 (loaded only when a review runs: the model SDK is heavy)

    environ = {"ANTHROPIC_API_KEY": inputs.anthropic_api_key}
    if env.anthropic_base_url:
        environ["ANTHROPIC_BASE_URL"] = env.anthropic_base_url
    return pipeline.model_from_env(config, environ)


def _git_workspace(workspace: Path | None) -> Path | None:
    """The checkout, when it is a git repository (it is only ever read, never executed)."""
    if workspace is not None and (workspace / ".git").exists():
        return workspace
    return None
