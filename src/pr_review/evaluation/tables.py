"""Plain-text renderings: the metrics table, the scorecard box, the comparison summary.

Pure functions of their values (tested against exact expected text).
"""

from __future__ import annotations

from collections.abc import Sequence

from pr_review.evaluation.results import CaseStatus, EvalSummary, FlagCheck, LaneMetrics, Totals
from pr_review.schema.eval import Scorecard

_MARK = {True: "ok", False: "MISS", None: "-"}


def render_metrics_table(summary: EvalSummary) -> str:
    """One row per case and a totals block."""
    grades = {g.case_id: g for g in summary.grading}
    header = ("case", "lane exp", "lane", "lane?", "flags", "high", "FP", "surf", "graded",
              "time s", "tokens", "cost $")
    rows = [header]
    for m in summary.cases:
        g = grades.get(m.case_id)
        graded = f"{g.weighted.earned}/{g.weighted.possible}" if g and g.weighted else "-"
        rows.append((
            m.case_id,
            "/".join(lane.value for lane in m.lane.expected) if m.lane.expected else "-",
            m.lane.actual.value if m.lane.actual else "ERROR",
            _MARK[m.lane.met],
            _flags(m.flags),
            str(m.high_findings),
            str(m.false_positives) if m.no_high_findings else "-",
            str(m.surfaced_findings),
            graded,
            f"{m.wall_ms / 1000:.1f}",
            str(m.input_tokens + m.output_tokens),
            "?" if m.cost_usd is None else f"{m.cost_usd:.3f}",
        ))
    lines = _table(rows)
    lines.extend(_totals(summary))
    errors = [m for m in summary.cases if m.status is CaseStatus.ERROR]
    lines.extend(f"error  {m.case_id}: {m.error}" for m in errors)
    return "\n".join(lines) + "\n"


def _flags(checks: Sequence[FlagCheck]) -> str:
    shown = [f"{c.flag.value}:{_MARK[c.met]}" for c in checks if c.expected is not None]
    return " ".join(shown) or "-"


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
           for row in rows]
    out.insert(1, "  ".join("-" * w for w in widths))
    return out


def _rate(met: int, total: int) -> str:
    return f"{met}/{total} ({met / total:.0%})" if total else "n/a"


def _totals(summary: EvalSummary) -> list[str]:
    t = summary.totals
    cost = "unknown (a model without a price)" if t.cost_usd is None else f"${t.cost_usd:.3f}"
    lines = [
        "",
        f"cases            {t.cases} ({t.errors} errors)",
        f"lane             {_rate(t.lane_met, t.lane_expected)}",
        f"flags            {_rate(t.flags_met, t.flags_expected)}",
        (
            f"clean PRs w/ FP  {_rate(t.clean_cases_with_false_positives, t.clean_cases)}"
            f" ({t.false_positives} high findings)"
        ),
    ]
    lines.extend(_must_not(t))
    lines.extend(render_lane_figures(t.lanes))
    if t.expected_lines:
        lines.append(
            f"defect lines     verifiers {_rate(t.lines_hit_by_verifiers, t.expected_lines)},"
            f" findings {_rate(t.lines_hit_by_findings, t.expected_lines)}"
        )
    g = summary.grading_totals
    if g is not None:
        lines.append(
            f"checklist        {g.earned}/{g.possible} points ({g.weighted_score:.0%}),"
            f" items {_rate(g.expectations_passed, g.expectations_total)}"
        )
    lines.extend([
        f"findings         {t.surfaced_findings} surfaced",
        (
            f"time             {t.wall_ms_total / 1000:.1f} s total, "
            f"{t.wall_ms_median / 1000:.1f} s median"
        ),
        f"tokens           {t.input_tokens} in, {t.output_tokens} out; cost {cost}",
    ])
    return lines


def _must_not(t: Totals) -> list[str]:
    if not t.flags_must_not:
        return []
    named = f": {', '.join(t.flag_false_positive_cases)}" if t.flag_false_positive_cases else ""
    caught = f"{t.flag_false_positives}/{t.flags_must_not}"
    return [f"must-not flags   {caught} detected anyway (false positives){named}"]


def render_lane_figures(lanes: LaneMetrics) -> list[str]:
    """The confusion matrix and the security / false-red / neutral figures, as text lines."""
    if not lanes.confusion:
        return []
    rows = [("expected \\ actual", "cases", "green", "yellow", "red", "error")]
    rows.extend(
        (r.expected, str(r.cases), str(r.green), str(r.yellow), str(r.red), str(r.error))
        for r in lanes.confusion
    )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    matrix = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines = ["", "lane confusion (rows: accepted lanes; columns: lane given)"]
    lines.extend(f"  {line}" for line in matrix)
    if lanes.security_cases:
        lines.append(
            f"security recall  {_rate(lanes.security_red, lanes.security_cases)} red-only cases"
            f" got red; {lanes.security_green} got green"
        )
    if lanes.non_red_cases:
        lines.append(
            f"false reds       {_rate(lanes.false_reds, lanes.non_red_cases)} of the cases that"
            " do not accept red"
        )
    if lanes.neutral_cases:
        lines.append(
            f"neutral green    {_rate(lanes.neutral_green, lanes.neutral_cases)} green-only"
            " cases kept green"
        )
    return lines


_NAMES = ("Correctness", "Completeness", "Adherence", "Actionability", "Efficiency", "Safety",
          "Consistency")
WIDTH = 96
"""Inner width of the scorecard box (between the two ``║``)."""


def bar(score: float) -> str:
    """Ten characters, one filled block per point."""
    filled = max(0, min(10, round(score)))
    return "█" * filled + "░" * (10 - filled)


def render_scorecard(card: Scorecard) -> str:
    """The seed's box-drawing scorecard."""
    rule = "═" * WIDTH
    lines = [f"╔{rule}╗", _row(f"  VERDICT SCORECARD — {card.skill}"), f"╠{rule}╣"]
    for name in _NAMES:
        dim = getattr(card.dimensions, name.lower())
        score = f"{dim.score:.1f}/10"
        lines.append(_row(f"  {name:<14} {bar(dim.score)}  {score:<7} {dim.justification}"))
    lines.append(f"╠{rule}╣")
    lines.append(_row(f"  COMPOSITE: {card.composite:.2f}/10 — Grade: {card.grade}"))
    lines.extend(_row(f"  ! {issue}") for issue in card.critical_issues)
    if card.recommendations:
        lines.append(_row(f"  → {card.recommendations[0]}"))
    lines.append(f"╚{rule}╝")
    return "\n".join(lines) + "\n"


def _row(text: str) -> str:
    if len(text) > WIDTH - 1:
        text = text[: WIDTH - 2] + "…"
    return f"║{text.ljust(WIDTH)}║"

