"""The Verdict scorecard (seed 001) of one configuration over a corpus.

Each dimension is ``10 x`` the mean of the measured rates that bear on it (see
``docs/eval.md#scorecard`` for the table), clamped to 1.0-10.0 and rounded to one decimal. A
dimension with nothing to measure scores the neutral 7.0 and says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pr_review.evaluation.results import CaseMetrics, CaseStatus, EvalSummary, Flag
from pr_review.schema.eval import Dimensions, DimensionScore, Scorecard

WEIGHTS: dict[str, float] = {
    "correctness": 0.25,
    "completeness": 0.20,
    "adherence": 0.15,
    "actionability": 0.15,
    "efficiency": 0.10,
    "safety": 0.10,
    "consistency": 0.05,
}
GRADES: tuple[tuple[float, str], ...] = (
    (9.5, "A+"), (9.0, "A"), (8.5, "A-"), (8.0, "B+"), (7.5, "B"), (7.0, "B-"),
    (6.5, "C+"), (6.0, "C"), (5.5, "C-"), (4.0, "D"), (0.0, "F"),
)
NEUTRAL = 7.0
RUBRIC = "pr-review eval (docs/eval.md#scorecard)"
PACKET_LIMIT = 65_536
MAX_FINDINGS_PER_PR = 3
COST_ANCHOR_USD = 0.50
LATENCY_ANCHOR_S = 300.0


@dataclass(frozen=True)
class Measured:
    """One dimension before weighting: score, why, and what to do about it."""

    score: float
    justification: str
    recommendation: str | None = None


def grade_of(composite: float) -> str:
    """The seed's letter grade for a composite score."""
    return next(letter for floor, letter in GRADES if composite >= floor - 1e-9)


def build_scorecard(
    summary: EvalSummary,
    *,
    previous: Scorecard | None,
    timestamp: datetime,
    transcript_path: str,
) -> Scorecard:
    """Score the run; ``previous`` is the last persisted scorecard of the same configuration."""
    ok = [m for m in summary.cases if m.status is CaseStatus.OK]
    measured = {
        "correctness": _correctness(summary),
        "completeness": _completeness(summary),
        "adherence": _adherence(ok),
        "actionability": _actionability(ok),
        "efficiency": _efficiency(summary),
        "safety": _safety(summary),
    }
    measured["consistency"] = _consistency(measured, previous)
    dims = {
        name: DimensionScore(score=m.score, weight=WEIGHTS[name], justification=m.justification)
        for name, m in measured.items()
    }
    composite = round(sum(d.score * d.weight for d in dims.values()), 2)
    critical = tuple(
        f"{name.capitalize()} {d.score:.1f}: {d.justification}"
        for name, d in dims.items()
        if d.score < 5.0
    )
    lowest = sorted(measured.items(), key=lambda kv: (kv[1].score, -WEIGHTS[kv[0]]))
    recommendations = tuple(m.recommendation for _, m in lowest if m.recommendation)[:3]
    return Scorecard(
        skill=summary.config,
        timestamp=timestamp.isoformat(timespec="seconds"),
        dimensions=Dimensions(**dims),
        composite=composite,
        grade=grade_of(composite),
        criticalIssues=critical,
        recommendations=recommendations,
        rubricUsed=RUBRIC,
        transcriptPath=transcript_path,
    )


def _score(rates: Sequence[float]) -> float:
    if not rates:
        return NEUTRAL
    return round(min(10.0, max(1.0, 10.0 * sum(rates) / len(rates))), 1)


def _ids(cases: Sequence[CaseMetrics], keep: Callable[[CaseMetrics], bool]) -> str:
    picked = [m.case_id for m in cases if keep(m)]
    shown = ", ".join(picked[:4])
    return shown + (f" (+{len(picked) - 4} more)" if len(picked) > 4 else "")


def _correctness(summary: EvalSummary) -> Measured:
    t, parts, rates = summary.totals, [], []
    if t.lane_expected:
        rates.append(t.lane_met / t.lane_expected)
        parts.append(f"lane right on {t.lane_met}/{t.lane_expected} cases")
    if t.clean_cases:
        rates.append(1 - t.clean_cases_with_false_positives / t.clean_cases)
        parts.append(
            f"{t.clean_cases_with_false_positives}/{t.clean_cases} clean PRs got a high finding"
        )
    lanes = t.lanes
    if lanes.security_cases:
        parts.append(
            f"red-only cases red {lanes.security_red}/{lanes.security_cases}"
            f" ({lanes.security_green} green)"
        )
    if lanes.non_red_cases:
        parts.append(f"false reds {lanes.false_reds}/{lanes.non_red_cases}")
    if lanes.neutral_cases:
        parts.append(f"green-only cases green {lanes.neutral_green}/{lanes.neutral_cases}")
    g = summary.grading_totals
    if g is not None:
        rates.append(g.weighted_score)
        parts.append(f"checklist {g.earned}/{g.possible} points ({g.pass_rate:.0%} items passed)")
    missed = _ids(summary.cases, lambda m: m.lane.met is False)
    fps = _ids(summary.cases, lambda m: m.false_positives > 0)
    advice = []
    if missed:
        advice.append(f"fix the lane on {missed}")
    if fps:
        advice.append(f"remove the high findings on clean PRs {fps}")
    return Measured(
        _score(rates),
        "; ".join(parts) or "no lane, clean-PR or checklist expectations to measure",
        ("Correctness: " + "; ".join(advice) + ".") if advice else None,
    )


def _completeness(summary: EvalSummary) -> Measured:
    t, parts, rates = summary.totals, [], []
    if t.flags_expected:
        rates.append(t.flags_met / t.flags_expected)
        parts.append(f"flags met {t.flags_met}/{t.flags_expected}")
    if t.expected_lines:
        rates.append(t.lines_hit_by_either / t.expected_lines)
        parts.append(f"defect lines hit {t.lines_hit_by_either}/{t.expected_lines}")
    if t.cases:
        rates.append(1 - t.errors / t.cases)
        parts.append(f"{t.cases - t.errors}/{t.cases} reviews completed")
    missed = [
        f"{c.flag.value} on {m.case_id}"
        for m in summary.cases
        for c in m.flags
        if c.met is False and c.expected
    ]
    wrong = [
        f"{c.flag.value} on {m.case_id}"
        for m in summary.cases
        for c in m.flags
        if c.met is False and c.expected is False and c.detected
    ]
    errors = _ids(summary.cases, lambda m: m.status is CaseStatus.ERROR)
    advice = (
        ([f"detect {', '.join(missed[:4])}"] if missed else [])
        + ([f"stop reporting {', '.join(wrong[:4])} (the case says it is not there)"]
           if wrong else [])
        + ([f"make {errors} complete"] if errors else [])
    )
    return Measured(
        _score(rates),
        "; ".join(parts) or "no cases",
        ("Completeness: " + "; ".join(advice) + ".") if advice else None,
    )


def _adherence(ok: Sequence[CaseMetrics]) -> Measured:
    checks = [
        (m.case_id, name, passed)
        for m in ok
        for name, passed in (
            ("packet marker", m.packet_marker),
            ("packet under 65,536 chars", m.packet_chars <= PACKET_LIMIT),
            ("findings inside the diff", m.findings_outside_diff == 0),
            ("suppressions explained", m.unexplained_suppressions == 0),
        )
    ]
    if not checks:
        return Measured(NEUTRAL, "no completed review to check")
    failed = [f"{name} on {case}" for case, name, passed in checks if not passed]
    passed = len(checks) - len(failed)
    why = f"{passed}/{len(checks)} packet/finding contract checks passed"
    return Measured(
        _score([passed / len(checks)]),
        why + (f" (failed: {', '.join(failed[:3])})" if failed else ""),
        f"Adherence: fix {', '.join(failed[:3])}." if failed else None,
    )


def _actionability(ok: Sequence[CaseMetrics]) -> Measured:
    surfaced = sum(m.surfaced_findings for m in ok)
    actionable = sum(m.actionable_findings for m in ok)
    quiet = sum(1 for m in ok if m.surfaced_findings <= MAX_FINDINGS_PER_PR)
    rates, parts = [], []
    if surfaced:
        rates.append(actionable / surfaced)
        parts.append(f"{actionable}/{surfaced} findings point at a line with a reason")
    if ok:
        rates.append(quiet / len(ok))
        parts.append(f"{quiet}/{len(ok)} PRs at or under {MAX_FINDINGS_PER_PR} findings")
    noisy = _ids(ok, lambda m: m.surfaced_findings > MAX_FINDINGS_PER_PR)
    return Measured(
        _score(rates),
        "; ".join(parts) or "no completed review",
        f"Actionability: cut the findings on {noisy} to the few that matter." if noisy else None,
    )


def _efficiency(summary: EvalSummary) -> Measured:
    t, rates, parts = summary.totals, [], []
    if t.cost_usd_median is not None:
        median = t.cost_usd_median
        rates.append(1.0 if median <= 0 else min(1.0, COST_ANCHOR_USD / median))
        parts.append(f"median ${t.cost_usd_median:.3f}/PR (anchor ${COST_ANCHOR_USD:.2f})")
    median_s = t.wall_ms_median / 1000
    if t.cases:
        rates.append(1.0 if median_s <= 0 else min(1.0, LATENCY_ANCHOR_S / median_s))
        parts.append(f"median {median_s:.1f} s/PR (anchor {LATENCY_ANCHOR_S:.0f} s)")
    parts.append(f"{t.input_tokens + t.output_tokens} tokens in all")
    score = _score(rates)
    return Measured(
        score,
        "; ".join(parts),
        "Efficiency: lower cost or latency per PR (cheaper models, smaller prompts)."
        if score < 9.0 else None,
    )


def _safety(summary: EvalSummary) -> Measured:
    ok = [m for m in summary.cases if m.status is CaseStatus.OK]
    secret_checks = [
        c for m in summary.cases for c in m.flags if c.flag is Flag.SECRETS and c.expected
    ]
    rates, parts = [], []
    if secret_checks:
        found = sum(1 for c in secret_checks if c.detected)
        rates.append(found / len(secret_checks))
        parts.append(f"secrets reported on {found}/{len(secret_checks)} cases that have them")
    approving = _ids(ok, lambda m: bool(m.approval_phrases))
    if ok:
        clean = sum(1 for m in ok if not m.approval_phrases)
        rates.append(clean / len(ok))
        parts.append(f"{clean}/{len(ok)} packets free of approval language")
    advice = []
    if secret_checks and rates[0] < 1.0:
        advice.append("report every planted secret")
    if approving:
        advice.append(f"remove approval language from {approving}")
    return Measured(
        _score(rates),
        "; ".join(parts) or "nothing safety-relevant to measure",
        ("Safety: " + "; ".join(advice) + ".") if advice else None,
    )


def _base(scores: dict[str, float]) -> float:
    """Weighted mean of the six dimensions other than consistency."""
    weights = {k: w for k, w in WEIGHTS.items() if k != "consistency"}
    return sum(scores[k] * w for k, w in weights.items()) / sum(weights.values())


def _consistency(measured: dict[str, Measured], previous: Scorecard | None) -> Measured:
    if previous is None:
        return Measured(NEUTRAL, "No prior executions for comparison.")
    now = _base({k: m.score for k, m in measured.items()})
    before = _base({k: getattr(previous.dimensions, k).score for k in measured})
    delta = now - before
    if delta >= -0.05:
        return Measured(10.0, f"quality {now:.2f} vs {before:.2f} on {previous.timestamp}")
    return Measured(
        round(max(1.0, 10.0 + 2.0 * delta), 1),
        f"quality dropped {-delta:.2f} ({now:.2f} vs {before:.2f} on {previous.timestamp})",
        f"Consistency: find what lowered quality since {previous.timestamp}.",
    )


_STAMP = "%Y%m%d-%H%M%S"


def persist(scorecard: Scorecard, scores_dir: Path, when: datetime) -> Path:
    """Write ``scores/<config>-<YYYYMMDD-HHMMSS>.json``; returns its path."""
    scores_dir.mkdir(parents=True, exist_ok=True)
    path = scores_dir / f"{scorecard.skill}-{when.strftime(_STAMP)}.json"
    data = scorecard.model_dump(mode="json", by_alias=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def latest(scores_dir: Path, config_name: str) -> Scorecard | None:
    """The most recent persisted scorecard of ``config_name`` (None when there is none)."""
    if not scores_dir.is_dir():
        return None
    pattern = re.compile(rf"^{re.escape(config_name)}-\d{{8}}-\d{{6}}\.json$")
    paths = sorted(p for p in scores_dir.iterdir() if pattern.match(p.name))
    for path in reversed(paths):
        try:
            return Scorecard.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a damaged file is skipped; the one before it still counts
    return None
