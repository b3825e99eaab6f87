"""The backtest's results: ``backtest.json`` (every PR) and ``backtest.md`` (what it means).

The gate (``mode: gate``) fails the check of every red PR until a maintainer acknowledges it
(see :mod:`pr_review.publish.gate`); green and yellow never block. So "what the gate would
have blocked" is the red PRs, each listed with the factors that made it red.
"""

from __future__ import annotations

import json
import statistics
from datetime import datetime
from pathlib import Path

from pydantic import Field

from pr_review.backtest import caps
from pr_review.backtest.history import MergedPR, MergeKind
from pr_review.errors import UserError
from pr_review.packet import neutralize
from pr_review.schema.base import Frozen
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import EvidencePack, RiskFactor

SLOWEST = 10
"""How many of the slowest reviews ``backtest.md`` lists."""


class PRResult(Frozen):
    """One merged PR and what the review said about it."""

    number: int | None = Field(description="The PR number, when the commit message names it.")
    kind: MergeKind
    title: str
    commit: str = Field(description="The merge or squash commit on the branch.")
    merged_at: str
    base: str = Field(description="Where the diff starts: the merge base (base...head).")
    head: str
    lane: Lane | None = Field(description="None when the review failed (see error).")
    confidence: str | None = None
    factors: tuple[RiskFactor, ...] = ()
    findings: int = Field(default=0, description="Surfaced findings.")
    files_changed: int = 0
    insertions: int = 0
    deletions: int = 0
    seconds: float = Field(description="Wall time of this PR's review.")
    cost_usd: float | None = Field(default=0.0, description="Model cost (0 without a model).")
    error: str | None = None

    @property
    def label(self) -> str:
        """``#123 Title`` or ``abc1234 Title``."""
        ref = f"#{self.number}" if self.number is not None else self.commit[:10]
        return f"{ref} {self.title}".strip()

    @classmethod
    def of(
        cls,
        merged: MergedPR,
        pack: EvidencePack,
        *,
        findings: int,
        cost_usd: float | None,
        seconds: float,
    ) -> PRResult:
        """A completed review."""
        stats = pack.diff.stats
        return cls(
            **_identity(merged),
            base=pack.pr.base_sha or merged.base,
            lane=pack.risk.lane,
            confidence=pack.risk.confidence.value,
            factors=pack.risk.factors,
            findings=findings,
            files_changed=stats.files_changed,
            insertions=stats.insertions,
            deletions=stats.deletions,
            seconds=round(seconds, 3),
            cost_usd=cost_usd,
        )

    @classmethod
    def failed(cls, merged: MergedPR, error: str, *, seconds: float) -> PRResult:
        """A review that could not complete."""
        return cls(
            **_identity(merged), base=merged.base, lane=None, seconds=round(seconds, 3),
            cost_usd=None, error=error,
        )


def _identity(merged: MergedPR) -> dict[str, object]:
    return {
        "number": merged.number,
        "kind": merged.kind,
        "title": merged.title,
        "commit": merged.commit,
        "merged_at": merged.merged_at.isoformat(),
        "head": merged.head,
    }


class LaneCount(Frozen):
    """PRs per lane (``error``: the review failed)."""

    green: int = 0
    yellow: int = 0
    red: int = 0
    error: int = 0


class BacktestReport(Frozen):
    """``backtest.json``."""

    repo: str
    branch: str
    selection: str = Field(description="`last N` or `since DATE`.")
    generated_at: str
    with_model: bool
    configuration: str = Field(
        default="each PR's base revision (.pr-review/config.yml there; defaults when absent)"
    )
    trust_mode: str = "untrusted: built-in static verifiers only"
    lanes: LaneCount
    blocked_by_gate: int = Field(description="Red PRs: the gate (mode: gate) fails their check.")
    wall_seconds: float
    seconds_per_pr_median: float
    prs: tuple[PRResult, ...] = Field(description="Newest first.")


def build_report(
    results: tuple[PRResult, ...],
    *,
    repo: Path,
    branch: str,
    selection: str,
    with_model: bool,
    generated_at: datetime,
    wall_seconds: float,
    configuration: str | None = None,
) -> BacktestReport:
    """Totals over the PRs; ``configuration`` says which was used when not each base's."""
    counts = {lane.value: 0 for lane in Lane} | {"error": 0}
    for r in results:
        counts[r.lane.value if r.lane else "error"] += 1
    times = [r.seconds for r in results]
    return BacktestReport(
        repo=str(repo),
        branch=branch,
        selection=selection,
        generated_at=generated_at.isoformat(timespec="seconds"),
        with_model=with_model,
        configuration=configuration or BacktestReport.model_fields["configuration"].default,
        lanes=LaneCount(**counts),
        blocked_by_gate=counts[Lane.RED.value],
        wall_seconds=round(wall_seconds, 1),
        seconds_per_pr_median=round(statistics.median(times), 3) if times else 0.0,
        prs=results,
    )


def write_report(report: BacktestReport, out_dir: Path) -> tuple[Path, Path]:
    """Write ``backtest.json`` and ``backtest.md``; returns their paths."""
    json_path, md_path = out_dir / "backtest.json", out_dir / "backtest.md"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        json_path.write_text(
            json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
        )
        md_path.write_text(render_markdown(report), encoding="utf-8")
    except OSError as exc:
        raise UserError(
            f"cannot write to --out-dir {out_dir}: {exc.strerror}. Choose a writable directory."
        ) from exc
    return json_path, md_path


def _share(n: int, total: int) -> str:
    return f"{n / total:.0%}" if total else "-"


def _cell(text: str) -> str:
    """Commit-message text (written by PR authors: untrusted) as one inert Markdown line that
    also fits a table cell: no HTML, mentions, links or markers, no pipe."""
    return neutralize.cell(text)


def _label(result: PRResult) -> str:
    """The PR's label for Markdown: our ``#N``/sha reference, then its escaped title."""
    ref = f"#{result.number}" if result.number is not None else result.commit[:10]
    return f"{ref} {_cell(result.title)}".strip()


def render_summary(report: BacktestReport) -> str:
    """The few lines printed on stdout."""
    n, lanes = len(report.prs), report.lanes
    lines = [
        (f"{n} pull requests merged into {report.branch} ({report.selection}), reviewed in "
        f"{report.wall_seconds:.1f} s ({report.seconds_per_pr_median:.2f} s median per PR)"),
        f"  green  {lanes.green:5}  {_share(lanes.green, n)}",
        f"  yellow {lanes.yellow:5}  {_share(lanes.yellow, n)}",
        f"  red    {lanes.red:5}  {_share(lanes.red, n)}",
    ]
    if lanes.error:
        lines.append(f"  error  {lanes.error:5}  {_share(lanes.error, n)}")
    lines.append(
        f"the gate (mode: gate) would have blocked {report.blocked_by_gate} of {n} until a "
        "maintainer acknowledged them"
    )
    return "\n".join(lines) + "\n"


def _configuration(report: BacktestReport) -> str:
    default = BacktestReport.model_fields["configuration"].default
    if report.configuration == default:
        return "the configuration of its own base revision, as the Action would have"
    return f"the configuration given by {report.configuration} (not each base revision's)"


def _red_by_factor(report: BacktestReport) -> list[str]:
    """Each red factor's PRs, those it made red alone, where; and a draft cap to try."""
    tallies = caps.tally(report.prs)
    if not tallies:
        return []
    out = [
        "## Red by factor",
        "",
        ("How many red PRs each factor was red on, and on how many it was the only red "
         "factor (holding it to yellow would have made those yellow), with the folders it "
         "stood on there:"),
        "",
        "| factor | red PRs | red by it alone | where, when alone (PRs) |",
        "|---|---:|---:|---|",
    ]
    for t in tallies:
        where = ", ".join(f"{neutralize.code(g)} ({n})" for g, n in t.folders[:caps.MAX_PATHS])
        hidden = len(t.folders) - caps.MAX_PATHS
        more = f" (+{hidden} more)" if hidden > 0 else ""
        out.append(f"| `{t.factor}` | {t.red} | {t.alone} | {where}{more} |")
    fragment = caps.draft(tallies)
    if fragment is not None:
        out += [
            "",
            ("A factor red on PR after PR because of what the project is can be held to "
             "yellow on its paths (`risk.yellow_at_most` in `.pr-review/config.yml`, read from "
             "the base branch; docs/configuration.md). Read the PRs it made red first: cap only "
             "what your reviewers judge ordinary, since a cap holds a real fix of that kind to "
             "yellow too. A draft for each factor that alone made "
             f"{caps.MIN_ALONE} or more PRs red, to try on this history with "
             "`pr-review backtest --config FILE` before you commit it:"),
            "",
            "```yaml",
            fragment.rstrip("\n"),
            "```",
        ]
    out.append("")
    return out


def render_markdown(report: BacktestReport) -> str:
    """``backtest.md``: lanes, what the gate would have blocked and why, the slowest reviews."""
    n, lanes = len(report.prs), report.lanes
    review = "with the AI reviewers" if report.with_model else "deterministically (no model)"
    out = [
        f"# pr-review backtest: {report.branch} of {report.repo}",
        "",
        (f"{n} pull requests merged into `{report.branch}` ({report.selection}), found in its "
        "first-parent history (merge commits, and squash commits whose subject ends in "
        f"`(#N)`), each reviewed {review} with {_configuration(report)}. "
        f"{report.wall_seconds:.1f} s in all, "
        f"{report.seconds_per_pr_median:.2f} s median per PR."),
        "",
        "## Lanes",
        "",
        "| lane | PRs | share |",
        "|---|---:|---:|",
        f"| green | {lanes.green} | {_share(lanes.green, n)} |",
        f"| yellow | {lanes.yellow} | {_share(lanes.yellow, n)} |",
        f"| red | {lanes.red} | {_share(lanes.red, n)} |",
    ]
    if lanes.error:
        out.append(f"| review failed | {lanes.error} | {_share(lanes.error, n)} |")
    red = [r for r in report.prs if r.lane is Lane.RED]
    out += [
        "",
        "## What the gate would have blocked",
        "",
        (f"With `mode: gate`, {len(red)} of {n} PRs ({_share(len(red), n)}) would have had a "
        "failing `pr-review/risk-lane` check until a maintainer who is not the author "
        "acknowledged them (label `pr-review/acknowledged` or `/review ack`); green and yellow "
        "PRs never block. "
        "With `mode: advisory` none would have been blocked. Each red PR and the factors that "
        "made it red:"),
        "",
    ]
    if not red:
        out.append("None.")
    for r in red:
        out.append(f"### {_label(r)}")
        out.append("")
        out.append(
            f"{r.kind.value} `{r.commit[:12]}` on {r.merged_at[:10]}; "
            f"`{r.base[:12]}...{r.head[:12]}`, "
            f"{r.files_changed} files, +{r.insertions}/-{r.deletions}, {r.findings} findings"
        )
        out.append("")
        first = next((f for f in r.factors if f.severity is FactorSeverity.RED), None)
        if first is not None:
            where = f" in {neutralize.code(first.files[0])}" if first.files else ""
            out.append(f"**Why red:** `{first.factor}`{where}: {_cell(first.why)}")
            out.append("")
        reds = [f for f in r.factors if f.severity is FactorSeverity.RED]
        for f in reds or r.factors:
            files = ", ".join(neutralize.code(p) for p in f.files[:5])
            more = f" (+{len(f.files) - 5} more)" if len(f.files) > 5 else ""
            why = f": {_cell(f.why)}" if f.why else ""
            out.append(f"- `{f.factor}` [{f.severity.value}]{why}" + (
                f" — {files}{more}" if files else ""
            ))
        if not reds:
            out.append("- (no single red factor: the lane comes from these together)")
        out.append("")
    out += _red_by_factor(report)
    slow = sorted(report.prs, key=lambda r: r.seconds, reverse=True)[:SLOWEST]
    out += [
        "## Slowest reviews",
        "",
        "| PR | seconds | lane | files | lines |",
        "|---|---:|---|---:|---:|",
    ]
    out += [
        f"| {_label(r)} | {r.seconds:.2f} | {r.lane.value if r.lane else 'failed'} | "
        f"{r.files_changed} | +{r.insertions}/-{r.deletions} |"
        for r in slow
    ]
    failed = [r for r in report.prs if r.error is not None]
    if failed:
        out += ["", "## Reviews that failed", ""]
        out += [f"- {_label(r)}: {_cell(r.error or '')}" for r in failed]
    out += ["", "Every PR, with its lane and factors: `backtest.json`.", ""]
    return "\n".join(out)
