"""Escalation from reviewers: corroborated critical findings raise the lane, never lower it.

The evidence stage decides the lane from what the diff does. After the review, one more
signal is allowed to *raise* it: a surfaced finding that

- a model reviewer raised (its canonical source is fresh-eyes or the challenger),
- is of ``min_severity`` or worse (default critical) with ``min_confidence`` or better
  merged confidence (default high),
- is in one of ``categories`` (default security, permissions, data-loss),
- is reported by at least ``min_sources`` independent producers (another reviewer or a
  verifier rule on the same lines; synthesis lists them in ``corroborated_by``),
- and is not contested (a refutation or a disagreeing action keeps it a question).

Then the lane becomes red with a ``reviewer-escalation`` factor that names the finding and
its place. Nothing here can lower a lane, remove a factor, or clear a gate: a model that was
talked into saying "this is fine" changes nothing, and one talked into a critical finding
still needs an independent second source to move the gate.
"""

from __future__ import annotations

from collections.abc import Iterable

from pr_review.evidence.artifacts import ArtifactInputs, missing_artifacts
from pr_review.evidence.settings import ArtifactSettings, EscalationSettings
from pr_review.schema.enums import Confidence, FactorSeverity, FindingSource, Lane, Severity
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack, Risk, RiskFactor

FACTOR = "reviewer-escalation"
_REVIEWERS = frozenset({FindingSource.FRESH_EYES, FindingSource.CHALLENGER})
MAX_NAMED = 3
"""Findings named in the factor's explanation (all are listed in ``escalated_from_findings``)."""


def _category(name: str | None) -> str:
    return (name or "").strip().lower().replace("_", "-").replace(" ", "-")


def qualifies(finding: SynthesizedFinding, settings: EscalationSettings) -> bool:
    """True when ``finding`` may raise the lane under ``settings``."""
    categories = {_category(c) for c in settings.categories}
    return (
        not finding.suppressed
        and finding.source in _REVIEWERS
        and finding.severity.weight >= Severity(settings.min_severity).weight
        and finding.merged_confidence.weight >= Confidence(settings.min_confidence).weight
        and _category(finding.category) in categories
        and not finding.contested_by
        and len(set(finding.corroborated_by) | {finding.producer}) >= settings.min_sources
    )


def escalate(
    risk: Risk, findings: Iterable[SynthesizedFinding], settings: EscalationSettings
) -> Risk:
    """``risk`` raised to red by the findings that qualify; unchanged when none does."""
    if not settings.enabled:
        return risk
    hits = [f for f in findings if qualifies(f, settings)]
    if not hits:
        return risk
    named = "; ".join(_describe(f) for f in hits[:MAX_NAMED])
    more = f" (and {len(hits) - MAX_NAMED} more)" if len(hits) > MAX_NAMED else ""
    factor = RiskFactor(
        factor=FACTOR,
        files=tuple(dict.fromkeys(f.file for f in hits if f.file)),
        severity=FactorSeverity.RED,
        why=f"independently corroborated {named}{more}",
    )
    return risk.model_copy(
        update={
            "lane": Lane.RED,
            "factors": (*risk.factors, factor),
            "escalated_from_findings": tuple(f.finding_id for f in hits),
        }
    )


def _describe(finding: SynthesizedFinding) -> str:
    place = finding.file
    if finding.file and finding.line_start is not None:
        end = finding.line_end if finding.line_end is not None else finding.line_start
        place += f":{finding.line_start}" + (f"-{end}" if end != finding.line_start else "")
    sources = ", ".join(sorted(set(finding.corroborated_by) | {finding.producer}))
    return (
        f"{finding.severity.value} {_category(finding.category)} finding "
        f"'{finding.title}' at {place or 'the PR'} ({sources})"
    )


def escalate_pack(
    pack: EvidencePack,
    findings: Iterable[SynthesizedFinding],
    settings: EscalationSettings,
    artifacts: ArtifactSettings,
    repo_paths: frozenset[str],
) -> EvidencePack:
    """``pack`` with its risk escalated by ``findings``, and the missing artifacts of the
    new lane (a red lane asks for more); the same pack when nothing qualifies."""
    risk = escalate(pack.risk, findings, settings)
    if risk == pack.risk:
        return pack
    missing = missing_artifacts(
        risk.lane,
        artifacts,
        ArtifactInputs(
            pack.pr.description,
            pack.context.linked_issues,
            pack.context.related_tests,
            risk.factors,
            frozenset(f.path for f in pack.diff.touched_files),
            repo_paths,
        ),
    )
    return pack.model_copy(update={"risk": risk, "missing_artifacts": missing})
