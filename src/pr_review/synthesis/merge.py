"""Turn one cluster into findings: a canonical one (corroborated or contested) and members.

Canonical choice: among the members that do not refute, reviewer findings first (their
title, reasoning, evidence and fix are specific; a tool's generic message never replaces
them: the tool's rule goes into ``corroborated_by``), then the highest severity, then
confidence, then evidence strength (verifier output > hunk-level code > repo policy >
contextual reasoning), then id. The cluster keeps the highest severity its agreeing members
give and ranks with the strongest evidence any of them has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pr_review.schema.enums import Action, Classification, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import CandidateFinding, SynthesizedFinding
from pr_review.synthesis.cluster import Edge, Place


class DedupStrategy(StrEnum):
    """How a cluster came together (the tile's four strategies)."""

    EXACT_MATCH = "exact_match"
    SEMANTIC_OVERLAP = "semantic_overlap"
    CORROBORATION = "corroboration"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class ClusterView:
    """A cluster's members and what they say together."""

    canonical: CandidateFinding
    others: tuple[CandidateFinding, ...]
    agreeing_origins: tuple[str, ...]
    contested_by: tuple[str, ...]
    positions: tuple[str, ...]
    strategy: DedupStrategy | None
    corroborating: tuple[str, ...] = ()
    """Agreeing producers as shown in ``corroborated_by``: a tool with its rule
    (``bandit:B608``), a reviewer by name."""
    severity: Severity | None = None
    """The highest severity among the agreeing members."""
    support: EvidenceType | None = None
    """The strongest evidence among the agreeing members."""
    locations: tuple[str, ...] = ()
    """Places the other agreeing members cite that the canonical's range does not cover."""


def label(f: CandidateFinding) -> str:
    """How a producer appears in ``corroborated_by``: ``tool:RULE`` for verifier output."""
    if f.source is FindingSource.VERIFIER and f.rule_id:
        return f"{f.producer}:{f.rule_id}"
    return f.producer


def _strength(f: CandidateFinding) -> tuple[int, int, int, int]:
    return (
        0 if f.source is FindingSource.VERIFIER else 1,
        f.severity.weight,
        f.confidence.weight,
        f.evidence.type.strength,
    )


def view(members: Sequence[CandidateFinding], edges: Sequence[Edge]) -> ClusterView:
    """Choose the canonical finding and read corroboration and contest off the members."""
    refuters = [m for m in members if m.classification is Classification.REFUTES]
    agreeing = [m for m in members if m.classification is not Classification.REFUTES]
    pool = agreeing or list(members)
    # max() keeps the first of equals: sorted by id, equal strengths resolve to the lowest id.
    canonical = max(sorted(pool, key=lambda m: m.finding_id), key=_strength)
    others = tuple(m for m in members if m is not canonical)
    origins = tuple(sorted({m.producer for m in agreeing}))
    dissent = list(refuters) if agreeing else []
    actions = {m.action for m in agreeing}
    if {Action.FIX, Action.DISCUSS} <= actions:
        dissent += [
            m
            for m in agreeing
            if m.action is not canonical.action and m.producer != canonical.producer
        ]
    contested_by = tuple(sorted({m.producer for m in dissent} - {""}))
    positions: tuple[str, ...] = ()
    if contested_by:
        positions = (_position(canonical), *(_position(m) for m in dissent))
    backing = agreeing or [canonical]
    return ClusterView(
        canonical,
        others,
        origins,
        contested_by,
        positions,
        _strategy(members, edges, origins, bool(contested_by)),
        tuple(sorted({label(m) for m in agreeing})),
        max((m.severity for m in backing), key=lambda s: s.weight),
        max((m.evidence.type for m in backing), key=lambda e: e.strength),
        _locations(canonical, [m for m in agreeing if m is not canonical]),
    )


def _place(f: CandidateFinding) -> str | None:
    if not f.file:
        return None
    if f.line_start is None:
        return f.file
    end = f.line_end if f.line_end is not None else f.line_start
    return f"{f.file}:{f.line_start}" + (f"-{end}" if end != f.line_start else "")


def _covers(outer: CandidateFinding, inner: CandidateFinding) -> bool:
    """Whether ``inner``'s lines overlap ``outer``'s (same file)."""
    if outer.file != inner.file:
        return False
    if outer.line_start is None or inner.line_start is None:
        return outer.line_start is None and inner.line_start is None
    o_end = outer.line_end if outer.line_end is not None else outer.line_start
    i_end = inner.line_end if inner.line_end is not None else inner.line_start
    return inner.line_start <= o_end and i_end >= outer.line_start


def _locations(canonical: CandidateFinding, others: Sequence[CandidateFinding]) -> tuple[str, ...]:
    """The distinct places of the other members that do not overlap the canonical's."""
    places = {_place(m) for m in others if not _covers(canonical, m)}
    return tuple(sorted(p for p in places if p))


def _position(f: CandidateFinding) -> str:
    stance = "refutes" if f.classification is Classification.REFUTES else f"says {f.action}"
    return f"{f.producer} ({f.finding_id}) {stance}: {f.title} — {f.evidence.detail}"


def _strategy(
    members: Sequence[CandidateFinding],
    edges: Sequence[Edge],
    origins: Sequence[str],
    contested: bool,
) -> DedupStrategy | None:
    if len(members) < 2:
        return None
    if contested:
        return DedupStrategy.CONFLICT
    if len(origins) >= 2:
        return DedupStrategy.CORROBORATION
    if edges and all(e.place is Place.SAME and (e.same_rule or e.score >= 0.7) for e in edges):
        return DedupStrategy.EXACT_MATCH
    return DedupStrategy.SEMANTIC_OVERLAP


def member_reason(member: CandidateFinding, canonical: CandidateFinding, strategy: str) -> str:
    """Why a non-canonical member is suppressed."""
    if member.source is FindingSource.VERIFIER and canonical.source is not FindingSource.VERIFIER:
        return (
            f"corroborates {canonical.finding_id}: {label(member)} reports the same concern on "
            f"the same lines; the reviewer's explanation is kept and the rule is listed in "
            f"corroborated_by"
        )
    if canonical.source is FindingSource.VERIFIER and member.source is not FindingSource.VERIFIER:
        return (
            f"reviewer's copy of verifier finding {canonical.finding_id} "
            f"({canonical.producer}); the verifier's finding is kept"
        )
    return f"merged into {canonical.finding_id} ({strategy})"


def as_member(f: CandidateFinding, reason: str, fingerprint: str) -> SynthesizedFinding:
    """A non-canonical member: kept in the output, suppressed with its reason."""
    return SynthesizedFinding(
        **f.model_dump(exclude={"fingerprint"}),
        fingerprint=f.fingerprint or fingerprint,
        merged_confidence=f.confidence,
        suppressed=True,
        suppression_reason=reason,
    )
