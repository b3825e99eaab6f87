"""``synthesize``: candidate findings in, one ranked and deduplicated list out.

Every input comes out exactly once: a cluster's canonical finding (surfaced, or suppressed
with a reason) or a member merged into it (suppressed, "merged into <id>"). The output does
not depend on the order of the input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.reviewers.interface import StructuredModel
from pr_review.schema.finding import CandidateFinding, SynthesizedFinding
from pr_review.schema.pack import Verification
from pr_review.schema.run import ModelCall
from pr_review.sources.diff import Diff
from pr_review.synthesis import rank
from pr_review.synthesis.cluster import Edge, components, judge_pairs, members_of
from pr_review.synthesis.memory import fingerprint
from pr_review.synthesis.merge import ClusterView, as_member, member_reason, view
from pr_review.synthesis.report import ClusterReport, PairReport, render_report
from pr_review.synthesis.settings import SynthesisSettings
from pr_review.synthesis.suppress import Judged, minor_reason, reason_for
from pr_review.synthesis.tiebreak import settle


@dataclass(frozen=True)
class SynthesisResult:
    """The synthesized findings (surfaced in rank order, then suppressed) and the clusters."""

    findings: tuple[SynthesizedFinding, ...]
    clusters: tuple[ClusterReport, ...]
    model_calls: tuple[ModelCall, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def surfaced(self) -> tuple[SynthesizedFinding, ...]:
        """Findings that go into the packet, best first."""
        return tuple(f for f in self.findings if not f.suppressed)

    @property
    def suppressed(self) -> tuple[SynthesizedFinding, ...]:
        """Findings kept out of the packet, each with its reason."""
        return tuple(f for f in self.findings if f.suppressed)

    def report_markdown(self) -> str:
        """The synthesis report: ranking formula, clusters with strategy and scores."""
        return render_report(self)


def synthesize(
    candidates: Sequence[CandidateFinding],
    *,
    diff: Diff | None,
    verification: Verification | None,
    settings: SynthesisSettings,
    model: StructuredModel | None = None,
) -> SynthesisResult:
    """Cluster, corroborate, contest, suppress and rank candidate findings."""
    members = members_of(candidates)
    outcome = settle(judge_pairs(members, settings), members, model, settings.model)
    groups = components(len(members), outcome.edges)
    ids = [m.finding.finding_id for m in members]
    canon: list[SynthesizedFinding] = []
    merged: list[SynthesizedFinding] = []
    reports: list[ClusterReport] = []
    group_of = {i: n for n, group in enumerate(groups) for i in group}
    edges_of: list[list[Edge]] = [[] for _ in groups]
    for e in outcome.edges:  # in edge order, as every group's report lists them
        if group_of[e.a] == group_of[e.b]:
            edges_of[group_of[e.a]].append(e)
    for group, group_edges in zip(groups, edges_of, strict=True):
        cv = view([members[i].finding for i in group], group_edges)
        head = _canonical(cv, diff, verification, settings)
        canon.append(head)
        strategy = cv.strategy.value if cv.strategy else "single"
        merged.extend(
            as_member(m, member_reason(m, cv.canonical, strategy), fingerprint(m, diff))
            for m in cv.others
        )
        reports.append(_report(cv, head, group_edges, ids))
    ranked = _ranked(canon)
    by_id = {f.finding_id: f for f in ranked if not f.suppressed}
    final_reports = tuple(
        sorted(
            (r.with_rank(by_id.get(r.canonical_id)) for r in reports),
            key=lambda r: (r.rank is None, r.rank or 0, -r.score, r.canonical_id),
        )
    )
    suppressed = sorted(
        [f for f in ranked if f.suppressed] + merged,
        key=lambda f: (f.finding_id, f.model_dump_json()),
    )
    notes = (outcome.note,) if outcome.note else ()
    return SynthesisResult(
        tuple(f for f in ranked if not f.suppressed) + tuple(suppressed),
        final_reports,
        outcome.calls,
        notes,
    )


def _canonical(
    cv: ClusterView,
    diff: Diff | None,
    verification: Verification | None,
    settings: SynthesisSettings,
) -> SynthesizedFinding:
    f = cv.canonical
    corroborated = len(cv.agreeing_origins) >= 2
    confidence = f.confidence.step_up() if corroborated else f.confidence
    contested = bool(cv.contested_by)
    severity = cv.severity or f.severity
    support = cv.support or f.evidence.type
    judged = Judged(f.model_copy(update={"severity": severity}), confidence,
                    len(cv.agreeing_origins), contested)  # fmt: skip
    reason = reason_for(judged, diff=diff, verification=verification, settings=settings)
    data = f.model_dump(exclude={"fingerprint", "action", "requires_human", "severity"})
    return SynthesizedFinding(
        **data,
        severity=severity,
        action="discuss" if contested else f.action,
        requires_human=True if contested else f.requires_human,
        fingerprint=f.fingerprint or fingerprint(f, diff),
        corroborated_by=cv.corroborating if corroborated else (),
        contested_by=cv.contested_by,
        merged_confidence=confidence,
        suppressed=reason is not None,
        suppression_reason=reason,
        merged_ids=tuple(sorted(m.finding_id for m in cv.others)),
        dedup_strategy=cv.strategy.value if cv.strategy else None,
        positions=cv.positions,
        locations=cv.locations,
        rank_score=float(rank.score(severity, confidence, support)),
        minor=settings.list_minor and reason is not None and reason == minor_reason(judged),
    )


def _ranked(canon: Sequence[SynthesizedFinding]) -> list[SynthesizedFinding]:
    ordered = sorted(
        canon,
        key=lambda f: (
            f.suppressed,
            *rank.sort_key(f.rank_score or 0.0, f.severity, f.evidence.type, f.finding_id),
            f.model_dump_json(),
        ),
    )
    out: list[SynthesizedFinding] = []
    for n, f in enumerate(ordered, start=1):
        out.append(f if f.suppressed else f.model_copy(update={"rank": n}))
    return out


def _report(
    cv: ClusterView,
    head: SynthesizedFinding,
    edges: Sequence[Edge],
    ids: Sequence[str],
) -> ClusterReport:
    return ClusterReport(
        canonical_id=head.finding_id,
        member_ids=tuple(sorted((head.finding_id, *head.merged_ids))),
        strategy=cv.strategy.value if cv.strategy else "single",
        origins=cv.agreeing_origins,
        contested_by=cv.contested_by,
        score=head.rank_score or 0.0,
        suppressed=head.suppressed,
        suppression_reason=head.suppression_reason,
        title=head.title,
        pairs=tuple(
            PairReport(
                a=ids[e.a],
                b=ids[e.b],
                place=e.place.value,
                similarity=e.score,
                decision=e.decision.value,
                by_model=e.by_model,
            )
            for e in edges
        ),
    )
