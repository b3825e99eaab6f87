"""Ranking: severity x confidence x verification support.

``score = severity weight (low 1, medium 2, high 3, critical 4)
        x merged confidence weight (low 1, medium 2, high 3)
        x verification support (contextual reasoning 1, hunk-level code 2, repo policy 2,
          verifier output 3)``

So a high-severity, high-confidence finding backed by hunk-level code scores 3 x 3 x 2 = 18,
the tile's own figure; the maximum is 36 (critical, high, verifier). Ties are broken by
severity, then evidence strength, then finding id, so the order is stable.
"""

from __future__ import annotations

from pr_review.schema.enums import Confidence, EvidenceType, Severity

SUPPORT = {
    EvidenceType.CONTEXTUAL_REASONING: 1,
    EvidenceType.HUNK_LEVEL_CODE: 2,
    EvidenceType.REPO_POLICY: 2,
    EvidenceType.VERIFIER_OUTPUT: 3,
}
"""Verification support per evidence type (the tile's 1-3 scale; a citable policy counts
as much as concrete code)."""


def score(severity: Severity, confidence: Confidence, evidence: EvidenceType) -> int:
    """The ranking score of one finding."""
    return severity.weight * confidence.weight * SUPPORT[evidence]


def sort_key(
    score_: float, severity: Severity, evidence: EvidenceType, finding_id: str
) -> tuple[float, int, int, str]:
    """Sort key: highest score first, then severity, evidence strength, id."""
    return (-score_, -severity.weight, -evidence.strength, finding_id)
