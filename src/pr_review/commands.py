"""Handlers of the ``pr-review`` sub-commands: gather inputs, call the pipeline, write outputs.

Each handler returns an exit code; errors propagate to ``cli.main``, the one boundary.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from pr_review.cli_support import EXIT_LANE, Progress, progress, timed_progress, write_text
from pr_review.config import Config, load_config
from pr_review.errors import UserError
from pr_review.review_inputs import config_for, policy_files_of
from pr_review.schema.enums import Lane, TrustMode
from pr_review.sources.model import PullRequest

MAX_BODY_BYTES = 1024 * 1024
"""The most ``--body-file`` may hold (a PR description on GitHub is at most 65536 characters)."""


def read_body(args: argparse.Namespace) -> str:
    """The PR description from ``--body`` or ``--body-file`` (empty when neither)."""
    if args.body_file is not None:
        path = args.body_file
        try:
            with path.open("rb") as handle:  # bounded: /dev/zero or a FIFO must not hang us
                raw: bytes = handle.read(MAX_BODY_BYTES + 1)
        except OSError as exc:
            raise UserError(
                f"cannot read --body-file {path}: {exc.strerror}. "
                "Pass an existing file, or use --body."
            ) from exc
        if len(raw) > MAX_BODY_BYTES:
            raise UserError(
                f"--body-file {path} is larger than {MAX_BODY_BYTES // 1024} KiB (GitHub caps a "
                "PR description at 65536 characters): pass the description's text file."
            )
        if b"\0" in raw:
            raise UserError(
                f"--body-file {path} holds NUL bytes, so it is not a text file: pass the PR "
                "description as UTF-8 text."
            )
        return raw.decode("utf-8", errors="replace")
    return str(args.body or "")


def load_local_pr(args: argparse.Namespace, progress: Progress = progress) -> PullRequest:
    """Read the PR named by ``--repo/--base/--head`` from local git."""
    from pr_review.sources.git import read_local_pr

    progress(f"reading {args.base}...{args.head} from {args.repo}")
    return read_local_pr(args.repo, args.base, args.head, title=args.title, body=read_body(args))


def trust_mode_of(args: argparse.Namespace) -> TrustMode:
    """Local runs are trusted unless ``--untrusted`` says otherwise."""
    return TrustMode.UNTRUSTED if args.untrusted else TrustMode.TRUSTED


def cmd_pack(args: argparse.Namespace) -> int:
    """``pr-review pack``: the evidence pack as JSON."""
    from pr_review.evidence.stage import build_evidence

    report, timings = timed_progress(args.timings)
    pr = load_local_pr(args, report)
    config = config_for(pr, args.config)
    pack = build_evidence(pr, config, trust_mode=trust_mode_of(args), progress=report)
    report("writing the pack")
    write_text(pack.model_dump_json(indent=2) + "\n", args.out)
    if timings is not None:
        timings.verifiers(pack.verification)
        timings.print()
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """``pr-review review``: the whole review of a local PR."""
    from pr_review.packet.terminal import render_terminal
    from pr_review.pipeline import (
        close_model,
        model_from_env,
        read_previous,
        run_review,
        write_outputs,
    )
    from pr_review.sources.git import GitHistory

    report, timings = timed_progress(args.timings)
    previous = read_previous(args.previous) if args.previous is not None else None
    pr = load_local_pr(args, report)
    config = config_for(pr, args.config)
    model, skip_reason = model_from_env(config, os.environ)
    try:
        outcome = run_review(
            pr,
            config,
            trust_mode=trust_mode_of(args),
            model=model,
            model_skip_reason=skip_reason,
            policy_files=policy_files_of(pr),
            previous=previous,
            history=GitHistory(args.repo) if previous is not None else None,
            force=args.force,
            progress=report,
        )
    finally:
        close_model(model)
    if args.out_dir is not None:
        report("writing the outputs")
        write_outputs(outcome, args.out_dir)
        report(
            "wrote evidence-pack.json, findings.json, verdicts.json, packet.md and "
            "review-state.json "
            f"to {args.out_dir}"
        )
    if args.sarif is not None:
        write_text(json.dumps(outcome.sarif, indent=2) + "\n", args.sarif)
    if args.format == "markdown":
        sys.stdout.write(outcome.packet_markdown)
    else:
        color = sys.stdout.isatty() and not args.no_color and "NO_COLOR" not in os.environ
        sys.stdout.write(render_terminal(outcome.packet_input, color=color))
    if timings is not None:
        timings.verifiers(outcome.pack.verification)
        timings.print()
    if args.fail_on_lane is not None and outcome.pack.risk.lane.at_least(Lane(args.fail_on_lane)):
        return EXIT_LANE
    return 0


def cmd_action(args: argparse.Namespace) -> int:
    """``pr-review action``: the GitHub Action entry point."""
    from pr_review.action import main as action_main

    return action_main(os.environ)


def cmd_eval(args: argparse.Namespace) -> int:
    """``pr-review eval``: measure a configuration on a labelled corpus."""
    from pr_review.evaluation.cli import run_eval_command

    return run_eval_command(args, progress=progress)


def cmd_backtest(args: argparse.Namespace) -> int:
    """``pr-review backtest``: review the PRs merged into a branch, write the report."""
    from pr_review.backtest.command import run_backtest_command

    return run_backtest_command(args)


def cmd_outcomes(args: argparse.Namespace) -> int:
    """``pr-review outcomes``: the fate of the Action's findings in a repository."""
    import os

    from pr_review.outcomes import run_outcomes_command

    def progress(message: str) -> None:
        print(f"pr-review: {message}", file=sys.stderr, flush=True)

    as_json, as_md = run_outcomes_command(
        args.repo, args.since, args.out_dir, env=dict(os.environ), progress=progress, bot=args.bot
    )
    print(f"pr-review: wrote {as_json} and {as_md}", file=sys.stderr)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    """``pr-review schema NAME``: print a contract's JSON Schema."""
    from pr_review.schema.export import schema_text

    sys.stdout.write(schema_text(args.name))
    return 0


def cmd_verifiers_init(args: argparse.Namespace) -> int:
    """``pr-review verifiers init``: write an example policy verifier file."""
    from pr_review.reviewers.policy import write_example_verifier

    path = write_example_verifier(args.dir)
    progress(f"wrote {path}; edit it, then commit it to the base branch")
    return 0


def cmd_verifiers_extract(args: argparse.Namespace) -> int:
    """``pr-review verifiers extract FILE...``: draft verifier files with the model."""
    from pr_review.pipeline import close_model, model_from_env
    from pr_review.reviewers.policy import extract_verifiers, write_policy_files

    config = load_config(args.config) if args.config else Config()
    model, reason = model_from_env(config, os.environ)
    if model is None:
        raise UserError(f"{reason}. Set ANTHROPIC_API_KEY to draft verifier files.")
    texts = {}
    for f in args.files:
        try:
            texts[str(f)] = f.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read {f}: {exc.strerror}.") from exc
    try:
        drafts = extract_verifiers(texts, model, model_name=config.reviewers.policy_model)
    finally:
        close_model(model)
    for path in write_policy_files(drafts, args.dir):
        progress(f"drafted {path} — review it before committing")
    return 0


def cmd_verdicts_aggregate(args: argparse.Namespace) -> int:
    """``pr-review verdicts aggregate DIR...``: the seed 000 roll-up."""
    from pr_review.evaluation.rollup import aggregate_verdicts, find_verdict_files

    files = find_verdict_files(args.dirs)
    if not files:
        raise UserError(
            f"no verdicts.json under {', '.join(map(str, args.dirs))}. Pass the directories "
            "where review runs wrote their outputs."
        )
    aggregate = aggregate_verdicts(files)
    write_text(aggregate.model_dump_json(indent=2) + "\n", args.out)
    progress(f"rolled up {len(files)} verdict files into {args.out}")
    return 0
