"""The ``pr-review`` command line.

``main`` is the one place that turns errors into exit codes and messages:
0 done (whatever the lane), 1 a user error (one line: the cause and the fix), 2 usage,
3 only with ``--fail-on-lane`` when the lane is at or above it, 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from pr_review import __version__, timings  # noqa: F401 - first: --timings counts from here
from pr_review.cli_support import (
    EXIT_INTERRUPTED,
    EXIT_LANE,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_USER_ERROR,
    write_text,
)
from pr_review.errors import ReviewError, UserError

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_LANE",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXIT_USER_ERROR",
    "build_parser",
    "main",
    "write_text",
]

logger = logging.getLogger("pr_review")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="pr-review: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except UserError as exc:
        print(f"pr-review: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("pr-review: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (ReviewError, Exception) as exc:  # the boundary: anything else is our bug
        return _unexpected(exc)


def _unexpected(exc: BaseException) -> int:
    """Report an unexpected error in one line; the traceback goes to a log file."""
    with tempfile.NamedTemporaryFile(
        "w", prefix="pr-review-crash-", suffix=".log", delete=False, encoding="utf-8"
    ) as log:
        log.write(f"pr-review {__version__}\n")
        traceback.print_exception(exc, file=log)
    print(
        f"pr-review: unexpected error: {type(exc).__name__}: {exc}. This is a bug in "
        f"pr-review; the traceback is in {log.name} — please include it in a report.",
        file=sys.stderr,
    )
    return EXIT_USER_ERROR


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one sub-command per entry point of the design."""
    parser = argparse.ArgumentParser(
        prog="pr-review",
        description="Evidence-first pull request review. It never approves.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    from pr_review import commands  # the handlers; kept apart so this module stays wiring

    pack = sub.add_parser("pack", help="build the evidence pack of a local PR (JSON)")
    _add_local_pr_args(pack)
    pack.add_argument("--out", type=Path, help="write the pack here instead of stdout")
    pack.set_defaults(handler=commands.cmd_pack)

    review = sub.add_parser("review", help="review a local PR: pack, reviewers, packet")
    _add_local_pr_args(review)
    review.add_argument(
        "--out-dir", type=Path, help="write evidence-pack.json, findings.json, "
        "verdicts.json and packet.md here"
    )
    review.add_argument(
        "--fail-on-lane", choices=["yellow", "red"],
        help="exit 3 when the lane is at or above this one",
    )
    review.add_argument(
        "--previous", type=Path, metavar="DIR",
        help="an earlier --out-dir of this PR: the model reviews only files changed since",
    )
    review.add_argument("--force", action="store_true", help="with --previous: review all again")
    review.add_argument("--sarif", type=Path, help="also write surfaced findings as SARIF 2.1.0")
    review.add_argument(
        "--format", choices=["terminal", "markdown"], default="terminal",
        help="what stdout gets: the terminal rendering (default) or the packet markdown",
    )
    review.add_argument("--no-color", action="store_true", help="no ANSI colour on stdout")
    review.set_defaults(handler=commands.cmd_review)

    action = sub.add_parser("action", help="the GitHub Action entry point (GITHUB_*, INPUT_*)")
    action.set_defaults(handler=commands.cmd_action)

    ev = sub.add_parser("eval", help="measure a reviewer configuration on a labelled corpus")
    ev.add_argument("--corpus", type=Path, required=True, help="corpus directory (docs/eval.md)")
    ev.add_argument("--config", type=Path, help="reviewer configuration (.pr-review/config.yml)")
    ev.add_argument("--out-dir", type=Path, default=Path("eval-out"), help="results go here")
    ev.add_argument(
        "--compare", nargs=2, type=Path, metavar=("A.yml", "B.yml"),
        help="blind A/B comparison of two configurations",
    )
    ev.add_argument("--replay", action="store_true", help="use recorded reviewer outputs")
    ev.add_argument("--concurrency", type=int, default=2, help="cases reviewed at once")
    ev.set_defaults(handler=commands.cmd_eval)

    _add_backtest(sub)

    schema = sub.add_parser("schema", help="print the JSON Schema of a contract")
    schema.add_argument("name", choices=sorted(_schema_names()))
    schema.set_defaults(handler=commands.cmd_schema)

    verifiers = sub.add_parser("verifiers", help="repository policy verifier files")
    vsub = verifiers.add_subparsers(dest="verifiers_command", required=True, metavar="ACTION")
    init = vsub.add_parser("init", help="write an example .pr-review/verifiers/*.json")
    init.add_argument("--dir", type=Path, default=Path(".pr-review/verifiers"))
    init.set_defaults(handler=commands.cmd_verifiers_init)
    extract = vsub.add_parser(
        "extract", help="draft verifier files from CONTRIBUTING/AGENTS-style documents (model)"
    )
    extract.add_argument("files", nargs="+", type=Path)
    extract.add_argument("--dir", type=Path, default=Path(".pr-review/verifiers"))
    extract.add_argument("--config", type=Path, help="configuration with the model to use")
    extract.set_defaults(handler=commands.cmd_verifiers_extract)

    verdicts = sub.add_parser("verdicts", help="policy verdict files")
    dsub = verdicts.add_subparsers(dest="verdicts_command", required=True, metavar="ACTION")
    agg = dsub.add_parser("aggregate", help="roll verdicts.json files up (seed 000 aggregate)")
    agg.add_argument("dirs", nargs="+", type=Path, help="directories searched for verdicts.json")
    agg.add_argument("--out", type=Path, default=Path("verdicts-aggregate.json"))
    agg.set_defaults(handler=commands.cmd_verdicts_aggregate)
    return parser


def _add_backtest(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pr_review import commands  # the handlers; kept apart so this module stays wiring

    bt = sub.add_parser(
        "backtest",
        help="what the review would have said about the PRs merged into a branch",
        description="Find the pull requests merged into a branch (merge commits, and squash "
        "commits whose subject ends in (#N), in its first-parent history), review each with "
        "the configuration of its base revision, and write backtest.json and backtest.md.",
    )
    bt.add_argument("--repo", type=Path, required=True, help="a full (not shallow) git clone")
    bt.add_argument("--branch", default="main", help="the branch PRs merge into (default main)")
    bt.add_argument("--last", type=int, help="the newest N merged PRs (default 100)")
    bt.add_argument("--since", help="every PR merged since this date (YYYY-MM-DD)")
    bt.add_argument(
        "--out-dir", type=Path, default=Path("backtest-out"),
        help="backtest.json and backtest.md go here (default backtest-out)",
    )
    bt.add_argument("--concurrency", type=int, default=2, help="PRs reviewed at once")
    bt.add_argument(
        "--config", type=Path,
        help="review every PR with this .pr-review/config.yml instead of its base revision's: "
        "try a configuration (a risk.yellow_at_most cap, an override) on your history before "
        "you commit it",
    )
    bt.add_argument(
        "--with-model", action="store_true",
        help="also run the AI reviewers (ANTHROPIC_API_KEY); states the estimated cost first",
    )
    bt.set_defaults(handler=commands.cmd_backtest)

    out = sub.add_parser(
        "outcomes",
        help="what became of the findings the Action posted (fixed, dismissed, resolved, open)",
        description="Read the merged PRs of a GitHub repository (GITHUB_TOKEN; GITHUB_API_URL "
        "for Enterprise Server), find the Action's inline findings and their fate, and write "
        "outcomes.json and outcomes.md: acceptance per source, rule and category, and the "
        "rules worth turning off.",
    )
    out.add_argument("--repo", required=True, help="OWNER/NAME")
    out.add_argument("--since", help="merged PRs updated since this date (YYYY-MM-DD)")
    out.add_argument(
        "--out-dir", type=Path, default=Path("outcomes-out"),
        help="outcomes.json and outcomes.md go here (default outcomes-out)",
    )
    out.add_argument("--bot", help="the login the Action comments as (default: any [bot])")
    out.set_defaults(handler=commands.cmd_outcomes)


def _add_local_pr_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repo", type=Path, required=True, help="local git repository")
    p.add_argument("--base", required=True, help="base ref; the diff is base...head")
    p.add_argument("--head", default="HEAD", help="head ref (default HEAD)")
    p.add_argument("--title", help="PR title (default: the head commit's subject)")
    body = p.add_mutually_exclusive_group()
    body.add_argument("--body", help="PR description")
    body.add_argument("--body-file", type=Path, help="read the PR description from a file")
    p.add_argument(
        "--config", type=Path,
        help="configuration file (default: .pr-review/config.yml of the BASE revision)",
    )
    p.add_argument(
        "--untrusted", action="store_true",
        help="treat the PR as untrusted: only static built-in verifiers run",
    )
    p.add_argument(
        "--timings", action="store_true",
        help="print where the time went, stage by stage (and each verifier), on stderr",
    )


def _schema_names() -> list[str]:
    from pr_review.schema import SCHEMA_NAMES

    return list(SCHEMA_NAMES)
