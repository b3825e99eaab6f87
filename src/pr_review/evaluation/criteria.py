"""Which checklist criteria are about the lane or a flag, and grading those without a model.

A criterion is recognized from its wording (rules as data below, each with examples that must
and must not match, run by the test suite), never from a case id. Criteria no rule claims go
to the model grader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pr_review.evaluation.corpus import Case, Criterion
from pr_review.evaluation.detect import detect
from pr_review.evaluation.results import Flag, ReviewOutput
from pr_review.schema.enums import Lane, Severity
from pr_review.schema.eval import GradedBy, GradedExpectation


class CriterionKind(StrEnum):
    """What a criterion is about."""

    LANE = "lane"
    OVERSIZED = "oversized"
    SPLIT = "split"
    MISSING_DESCRIPTION = "missing_description"
    AI_ASSISTED = "ai_assisted"
    SECRETS = "secrets"
    NO_HIGH_FINDINGS = "no_high_findings"
    MODEL = "model"


@dataclass(frozen=True)
class CriterionRule:
    """A wording that marks a criterion as deterministic, with its own examples."""

    kind: CriterionKind
    pattern: re.Pattern[str]
    matches: tuple[str, ...]
    ignores: tuple[str, ...]


RULES: tuple[CriterionRule, ...] = (
    CriterionRule(
        CriterionKind.LANE,
        re.compile(r"\brisk (?:classified|lane|level)\b|\bclassified (?:as )?(?:green|yellow|red)",
                   re.I),
        ("Risk classified red", "Risk classified yellow or higher", "Classified as green"),
        ("Catches stale rate data", "Escalates due to auth changes", "Identifies security risk"),
    ),
    CriterionRule(
        CriterionKind.SPLIT,
        re.compile(r"\brecommends? split|\bsuggests? split", re.I),
        ("Recommends splitting", "Suggests splitting the PR"),
        ("Detects oversized PR", "Catches split-brain writes"),
    ),
    CriterionRule(
        CriterionKind.OVERSIZED,
        re.compile(r"\b(?:detects?|flags?|identifies) (?:an? )?(?:oversized?|too large|large)\b",
                   re.I),
        ("Detects oversized PR", "Flags too large PR"),
        ("Catches oversized buffer allocation", "Recommends splitting"),
    ),
    CriterionRule(
        CriterionKind.MISSING_DESCRIPTION,
        re.compile(r"\b(?:missing|empty|no|absent) (?:pr )?description\b", re.I),
        ("Flags missing description", "Notes empty PR description"),
        ("Catches missing error handling", "Descriptive names"),
    ),
    CriterionRule(
        CriterionKind.AI_ASSISTED,
        re.compile(r"\bAI[- ](?:authorship|assisted|generated|authored)\b", re.I),
        ("Detects AI authorship", "Notes AI-assisted commits"),
        ("Catches said authorship bug", "Detects WAI-ARIA issues"),
    ),
    CriterionRule(
        CriterionKind.SECRETS,
        re.compile(
            r"\b(?:hard-?coded|leaked|committed|exposed) (?:secrets?|credentials?|api keys?)", re.I
        ),
        ("Catches hardcoded secrets", "Catches hard-coded credentials"),
        ("Catches refresh token exposure", "Catches secrets rotation bug"),
    ),
    CriterionRule(
        CriterionKind.NO_HIGH_FINDINGS,
        re.compile(r"\bno high(?: or critical|/critical)?(?: severity)? findings?\b", re.I),
        ("No high or critical severity findings are raised", "No high findings on a clean PR"),
        ("Does not raise irrelevant findings", "No false positive on every-to-some change"),
    ),
)


def classify(criterion: Criterion) -> CriterionKind:
    """The first rule matching the name, then the description; MODEL when none does."""
    for text in (criterion.name, criterion.description):
        for rule in RULES:
            if rule.pattern.search(text):
                return rule.kind
    return CriterionKind.MODEL


_LANE_WORD = re.compile(r"\b(green|yellow|red)\b", re.I)


def lanes_named(text: str) -> tuple[Lane, ...]:
    """Lanes a criterion accepts: ``yellow or higher`` -> yellow, red; ``green`` -> green."""
    named = [Lane(w.lower()) for w in _LANE_WORD.findall(text)]
    if not named:
        return ()
    if re.search(r"\bor (?:higher|above)\b|\bat least\b", text, re.I):
        low = min(named, key=lambda lane: lane.rank)
        return tuple(lane for lane in Lane if lane.at_least(low))
    return tuple(dict.fromkeys(named))


def grade_deterministic(
    criterion: Criterion, kind: CriterionKind, case: Case, output: ReviewOutput
) -> GradedExpectation:
    """Grade a lane/flag criterion from the pack and findings (never called for MODEL)."""
    passed, evidence = _decide(criterion, kind, case, output)
    return GradedExpectation(
        text=criterion.name,
        passed=passed,
        evidence=evidence,
        description=criterion.description,
        max_score=criterion.max_score,
        graded_by=GradedBy.DETERMINISTIC,
    )


def _decide(
    criterion: Criterion, kind: CriterionKind, case: Case, output: ReviewOutput
) -> tuple[bool, str]:
    match kind:
        case CriterionKind.LANE:
            return _lane(criterion, case, output)
        case CriterionKind.SPLIT:
            return _split(output)
        case CriterionKind.NO_HIGH_FINDINGS:
            return _no_high(output)
        case (
            CriterionKind.OVERSIZED
            | CriterionKind.MISSING_DESCRIPTION
            | CriterionKind.AI_ASSISTED
            | CriterionKind.SECRETS
        ):
            # These kinds share their value with the Flag they are about.
            return detect(Flag(kind.value), output.pack, output.findings)
        case CriterionKind.MODEL:
            raise ValueError("model criteria are graded by the grader, not here")


def _lane(criterion: Criterion, case: Case, output: ReviewOutput) -> tuple[bool, str]:
    accepted = case.spec.expected.lane_any_of or lanes_named(criterion.name)
    risk = output.pack.risk
    factors = ", ".join(f.factor for f in risk.factors) or "no factors"
    names = "/".join(a.value for a in accepted) or "(none named)"
    return risk.lane in accepted, f"lane {risk.lane.value} ({factors}); accepted: {names}"


def _split(output: ReviewOutput) -> tuple[bool, str]:
    flagged, evidence = detect(Flag.OVERSIZED, output.pack, output.findings)
    if not flagged:
        return False, f"size not flagged, so no split recommended ({evidence})"
    parts = output.pack.diff.oversize.split
    if parts:
        return True, "split suggested by subsystem: " + ", ".join(p.subsystem for p in parts)
    for blocker in output.pack.blockers:
        if "split" in blocker.recommendation.lower():
            return True, f"blocker recommendation: {blocker.recommendation}"
    if re.search(r"\bsplit", output.packet_markdown, re.I):
        return True, f"{evidence}; the packet recommends splitting"
    return False, f"{evidence}, but neither pack nor packet recommends a split"


def _no_high(output: ReviewOutput) -> tuple[bool, str]:
    high = [
        f for f in output.findings
        if not f.suppressed and f.severity in (Severity.HIGH, Severity.CRITICAL)
    ]
    if not high:
        surfaced = sum(1 for f in output.findings if not f.suppressed)
        return True, f"no surfaced high/critical finding ({surfaced} surfaced in all)"
    listing = "; ".join(f"{f.severity.value} {f.title} ({f.file}:{f.line_start})" for f in high)
    return False, f"{len(high)} high/critical surfaced: {listing}"


def split_criteria(
    criteria: Sequence[Criterion],
) -> tuple[list[tuple[Criterion, CriterionKind]], list[Criterion]]:
    """(deterministic criteria with their kind, criteria left for the model)."""
    deterministic: list[tuple[Criterion, CriterionKind]] = []
    model: list[Criterion] = []
    for criterion in criteria:
        kind = classify(criterion)
        if kind is CriterionKind.MODEL:
            model.append(criterion)
        else:
            deterministic.append((criterion, kind))
    return deterministic, model
