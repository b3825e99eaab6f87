"""Adapter for the tile's older finding shape (its synthesis scenario uses it).

That shape has numeric ``severity``/``confidence``/``verification_support`` (1-3), ``issue``
instead of ``title``, an ``evidence`` string, and ``verifier_name`` on verifier findings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from pr_review.schema.enums import (
    Action,
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
)
from pr_review.schema.finding import CandidateFinding, Evidence

_SEVERITY = {3: Severity.HIGH, 2: Severity.MEDIUM, 1: Severity.LOW}
_CONFIDENCE = {3: Confidence.HIGH, 2: Confidence.MEDIUM, 1: Confidence.LOW}
_EVIDENCE = {
    3: EvidenceType.VERIFIER_OUTPUT,
    2: EvidenceType.HUNK_LEVEL_CODE,
    1: EvidenceType.CONTEXTUAL_REASONING,
}


class LegacyFinding(BaseModel):
    """One finding in the tile's scenario shape (validated: it is outside data)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    finding_id: str
    source: FindingSource
    file: str
    line_start: int | None = None
    line_end: int | None = None
    issue: str
    severity: int
    confidence: int
    evidence: str
    verification_support: int
    classification: Classification | None = None
    verifier_name: str | None = None


def _action(f: LegacyFinding) -> Action:
    # The old shape has no action: a refutation is a discussion, strong evidence a fix.
    if f.classification is Classification.REFUTES:
        return Action.DISCUSS
    if f.severity >= 2 and f.verification_support >= 2:
        return Action.FIX
    return Action.VERIFY


def from_legacy(data: Mapping[str, Any]) -> CandidateFinding:
    """Convert one legacy finding: 3/2/1 → high/medium/low; support → evidence type."""
    f = LegacyFinding.model_validate(data)
    origin = f.verifier_name if f.source is FindingSource.VERIFIER and f.verifier_name else ""
    return CandidateFinding(
        finding_id=f.finding_id,
        source=f.source,
        title=f.issue,
        file=f.file,
        line_start=f.line_start,
        line_end=f.line_end,
        why_it_matters=f.issue,
        evidence=Evidence(type=_EVIDENCE[_clamp(f.verification_support)], detail=f.evidence),
        confidence=_CONFIDENCE[_clamp(f.confidence)],
        severity=_SEVERITY[_clamp(f.severity)],
        action=_action(f),
        origin=origin,
        classification=f.classification,
    )


def _clamp(value: int) -> int:
    return min(3, max(1, value))
