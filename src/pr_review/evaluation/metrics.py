"""Deterministic metrics of one review against its case's expectations, and their totals."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from pr_review.evaluation.corpus import Case, ExpectedLines
from pr_review.evaluation.detect import approval_phrases, detect
from pr_review.evaluation.results import (
    CaseMetrics,
    CaseStatus,
    ConfusionRow,
    FactorNote,
    Flag,
    FlagCheck,
    LaneCheck,
    LaneMetrics,
    LineCheck,
    ReviewOutput,
    Totals,
)
from pr_review.schema.enums import Lane, Severity
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack

PACKET_MARKER = "<!-- pr-review-guardrails:packet -->"
_HIGH = frozenset({Severity.HIGH, Severity.CRITICAL})


def case_metrics(case: Case, output: ReviewOutput, *, wall_ms: int) -> CaseMetrics:
    """Measure one completed review against the case's ``expected``."""
    expected = case.spec.expected
    pack = output.pack
    surfaced = tuple(f for f in output.findings if not f.suppressed)
    high = sum(1 for f in surfaced if f.severity in _HIGH)
    tokens_in, tokens_out = output.meta.total_tokens
    touched = {f.path for f in pack.diff.touched_files}
    lane_met = None if expected.lane_any_of is None else pack.risk.lane in expected.lane_any_of
    return CaseMetrics(
        case_id=case.id,
        status=CaseStatus.OK,
        lane=LaneCheck(expected=expected.lane_any_of, actual=pack.risk.lane, met=lane_met),
        factors=tuple(
            FactorNote(factor=f.factor, severity=f.severity.value) for f in pack.risk.factors
        ),
        flags=flag_checks(case, pack, output.findings),
        no_high_findings=expected.no_high_findings,
        high_findings=high,
        false_positives=high if expected.no_high_findings else 0,
        surfaced_findings=len(surfaced),
        suppressed_findings=len(output.findings) - len(surfaced),
        actionable_findings=sum(1 for f in surfaced if _actionable(f)),
        findings_outside_diff=sum(1 for f in surfaced if f.file not in touched),
        unexplained_suppressions=sum(
            1 for f in output.findings if f.suppressed and not (f.suppression_reason or "").strip()
        ),
        lines=line_check(case.spec.expected_lines, pack, surfaced),
        packet_chars=len(output.packet_markdown),
        packet_marker=output.packet_markdown.startswith(PACKET_MARKER),
        approval_phrases=approval_phrases(output.packet_markdown),
        reviewers={r.name: r.status.value for r in output.meta.reviewers},
        wall_ms=wall_ms,
        input_tokens=tokens_in,
        output_tokens=tokens_out,
        cost_usd=output.meta.total_cost_usd,
    )


def failed_case_metrics(case: Case, error: str, *, wall_ms: int) -> CaseMetrics:
    """The record of a case whose review could not complete (partial failure is data)."""
    return CaseMetrics(
        case_id=case.id,
        status=CaseStatus.ERROR,
        error=error,
        lane=LaneCheck(
            expected=case.spec.expected.lane_any_of,
            actual=None,
            met=None if case.spec.expected.lane_any_of is None else False,
        ),
        flags=tuple(
            FlagCheck(
                flag=flag,
                expected=getattr(case.spec.expected, flag.value),
                detected=False,
                met=None if getattr(case.spec.expected, flag.value) is None else False,
                evidence="the review did not complete",
            )
            for flag in Flag
        ),
        no_high_findings=case.spec.expected.no_high_findings,
        wall_ms=wall_ms,
        cost_usd=None,
    )


def flag_checks(
    case: Case, pack: EvidencePack, findings: Sequence[SynthesizedFinding]
) -> tuple[FlagCheck, ...]:
    """Every flag: what was expected, what was detected, whether they agree."""
    checks = []
    for flag in Flag:
        expected: bool | None = getattr(case.spec.expected, flag.value)
        detected, evidence = detect(flag, pack, findings)
        met = None if expected is None else detected == expected
        checks.append(
            FlagCheck(flag=flag, expected=expected, detected=detected, met=met, evidence=evidence)
        )
    return tuple(checks)


def line_check(
    expected: Sequence[ExpectedLines],
    pack: EvidencePack,
    surfaced: Sequence[SynthesizedFinding],
) -> LineCheck | None:
    """How many expected line ranges a verifier finding, or a surfaced finding, touches."""
    if not expected:
        return None
    by_verifier = [
        (f.file, f.line, f.end_line or f.line)
        for run in pack.verification.verifiers
        for f in run.findings
        if f.line is not None
    ]
    by_finding = [
        (f.file, f.line_start, f.line_end or f.line_start)
        for f in surfaced
        if f.line_start is not None
    ]
    return LineCheck(
        expected=len(expected),
        hit_by_verifiers=sum(1 for e in expected if _hit(e, by_verifier)),
        hit_by_findings=sum(1 for e in expected if _hit(e, by_finding)),
        hit_by_either=sum(1 for e in expected if _hit(e, [*by_verifier, *by_finding])),
    )


def _hit(expected: ExpectedLines, spans: Sequence[tuple[str, int | None, int | None]]) -> bool:
    for path, start, end in spans:
        if path != expected.path or start is None:
            continue
        if start <= expected.end and (end or start) >= expected.start:
            return True
    return False


def _actionable(finding: SynthesizedFinding) -> bool:
    return finding.line_start is not None and bool(finding.why_it_matters.strip())


def totals(metrics: Sequence[CaseMetrics]) -> Totals:
    """Sums, rates and medians over the corpus; failed cases count against expectations."""
    flags = [c for m in metrics for c in m.flags if c.met is not None]
    must_not = [(m.case_id, c) for m in metrics for c in m.flags if c.expected is False]
    wrong = [f"{case_id}:{c.flag.value}" for case_id, c in must_not if c.detected]
    clean = [m for m in metrics if m.no_high_findings]
    lines = [m.lines for m in metrics if m.lines is not None]
    walls = [m.wall_ms for m in metrics]
    costs = [m.cost_usd for m in metrics if m.status is CaseStatus.OK]
    known = [c for c in costs if c is not None]
    cost_known = len(known) == len(costs)
    return Totals(
        cases=len(metrics),
        errors=sum(1 for m in metrics if m.status is CaseStatus.ERROR),
        lane_expected=sum(1 for m in metrics if m.lane.met is not None),
        lane_met=sum(1 for m in metrics if m.lane.met),
        flags_expected=len(flags),
        flags_met=sum(1 for c in flags if c.met),
        flags_must_not=len(must_not),
        flag_false_positives=len(wrong),
        flag_false_positive_cases=tuple(wrong),
        clean_cases=len(clean),
        clean_cases_with_false_positives=sum(
            1 for m in clean if m.false_positives or m.status is CaseStatus.ERROR
        ),
        false_positives=sum(m.false_positives for m in metrics),
        expected_lines=sum(x.expected for x in lines),
        lines_hit_by_verifiers=sum(x.hit_by_verifiers for x in lines),
        lines_hit_by_findings=sum(x.hit_by_findings for x in lines),
        lines_hit_by_either=sum(x.hit_by_either for x in lines),
        surfaced_findings=sum(m.surfaced_findings for m in metrics),
        wall_ms_total=sum(walls),
        wall_ms_median=statistics.median(walls) if walls else 0.0,
        input_tokens=sum(m.input_tokens for m in metrics),
        output_tokens=sum(m.output_tokens for m in metrics),
        cost_usd=sum(known) if cost_known else None,
        cost_usd_median=statistics.median(known) if known and cost_known else None,
        lanes=lane_metrics(metrics),
    )


_LANE_ORDER = {Lane.GREEN: 0, Lane.YELLOW: 1, Lane.RED: 2}


def accepted_label(lanes: Sequence[Lane]) -> str:
    """A lane set as one label, lowest lane first: ``yellow|red``."""
    return "|".join(lane.value for lane in sorted(set(lanes), key=_LANE_ORDER.__getitem__))


def lane_metrics(metrics: Sequence[CaseMetrics]) -> LaneMetrics:
    """Confusion matrix and the lane figures that matter: security, false reds, neutral."""
    labelled = [m for m in metrics if m.lane.expected is not None]
    rows: dict[tuple[int, ...], dict[str, int]] = {}
    labels: dict[tuple[int, ...], str] = {}
    for m in labelled:
        accepted = m.lane.expected or ()
        key = (len(set(accepted)), *sorted(_LANE_ORDER[lane] for lane in set(accepted)))
        labels[key] = accepted_label(accepted)
        row = rows.setdefault(key, {})
        column = m.lane.actual.value if m.lane.actual is not None else "error"
        row[column] = row.get(column, 0) + 1
    confusion = tuple(
        ConfusionRow(expected=labels[key], cases=sum(rows[key].values()), **rows[key])
        for key in sorted(rows)
    )
    security = [m for m in labelled if set(m.lane.expected or ()) == {Lane.RED}]
    non_red = [m for m in labelled if Lane.RED not in (m.lane.expected or ())]
    neutral = [m for m in labelled if set(m.lane.expected or ()) == {Lane.GREEN}]
    return LaneMetrics(
        confusion=confusion,
        security_cases=len(security),
        security_red=sum(1 for m in security if m.lane.actual is Lane.RED),
        security_green=sum(1 for m in security if m.lane.actual is Lane.GREEN),
        non_red_cases=len(non_red),
        false_reds=sum(1 for m in non_red if m.lane.actual is Lane.RED),
        neutral_cases=len(neutral),
        neutral_green=sum(1 for m in neutral if m.lane.actual is Lane.GREEN),
    )

