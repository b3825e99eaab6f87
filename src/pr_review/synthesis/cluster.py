"""Group candidate findings that describe the same problem.

Two findings can only be the same problem when they are in the same file (or either has no
file). Their *place* is then ``same`` (identical line range), ``near`` (ranges within the
tolerance), ``far`` (both have lines, farther apart) or ``unknown`` (a side has no lines).
A pair merges when its text similarity (:mod:`.text`) reaches the threshold for its place:
``far_merge`` when both cite lines farther apart than the tolerance, ``near_merge`` otherwise
(an unknown place is no evidence of being apart, so the text decides at the near bar).
A shared rule id at a near place merges outright; two verifier findings merge only so, or at
a near place when their texts share a concept (several tools on one try/except/pass). A
verifier finding and a reviewer finding merge only at the same or a near place (a tool hit
speaks for its own lines). Pairs just below a threshold are
*ambiguous*; with a model they are settled in one batched call (:mod:`.tiebreak`),
without one they stay apart.
Clusters are the connected components of the merged pairs (transitive, so the result does
not depend on input order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pr_review.schema.enums import FindingSource
from pr_review.schema.finding import CandidateFinding
from pr_review.synthesis.settings import SynthesisSettings
from pr_review.synthesis.text import idf_weights, shared_concepts, similarity, terms


class Place(StrEnum):
    """How the locations of two findings relate."""

    SAME = "same"
    NEAR = "near"
    FAR = "far"
    UNKNOWN = "unknown"


class Decision(StrEnum):
    """What the deterministic pass concluded about a pair."""

    MERGE = "merge"
    AMBIGUOUS = "ambiguous"
    APART = "apart"


@dataclass(frozen=True)
class Member:
    """A candidate with its precomputed term sets."""

    finding: CandidateFinding
    title_terms: frozenset[str]
    text_terms: frozenset[str]


@dataclass(frozen=True)
class Edge:
    """A judged pair of members (indices into the sorted member list)."""

    a: int
    b: int
    place: Place
    score: float
    decision: Decision
    by_model: bool = False
    same_rule: bool = False


def members_of(findings: Sequence[CandidateFinding]) -> tuple[Member, ...]:
    """Members in canonical order: by id, then by content, so order never matters."""
    ordered = sorted(findings, key=lambda f: f.finding_id)
    if len({f.finding_id for f in ordered}) < len(ordered):  # rare: only then dump them all
        ordered = sorted(ordered, key=lambda f: (f.finding_id, f.model_dump_json()))
    return tuple(
        Member(
            f,
            terms(f.title),
            terms(f"{f.title} {f.why_it_matters} {f.evidence.detail}"),
        )
        for f in ordered
    )


def place_of(a: CandidateFinding, b: CandidateFinding, tolerance: int) -> Place | None:
    """The pair's place, or None when the findings are in different files."""
    if a.file and b.file and a.file != b.file:
        return None
    ra, rb = _range(a), _range(b)
    if ra is None or rb is None or not a.file or not b.file:
        return Place.UNKNOWN
    if ra == rb:
        return Place.SAME
    gap = max(ra[0], rb[0]) - min(ra[1], rb[1])
    return Place.NEAR if gap <= tolerance else Place.FAR


def _range(f: CandidateFinding) -> tuple[int, int] | None:
    if f.line_start is None:
        return None
    end = f.line_end if f.line_end is not None else f.line_start
    return (min(f.line_start, end), max(f.line_start, end))


def judge_pairs(members: Sequence[Member], settings: SynthesisSettings) -> tuple[Edge, ...]:
    """Every pair that merges or is ambiguous (apart pairs are not kept), ordered by (a, b).

    Only pairs that can merge are judged (bucket first, then compare within a bucket):
    findings in different files never merge, and a pair with a tool finding merges only at
    a near place (same file, lines within the tolerance). So reviewer findings meet the
    reviewer findings of their file (and those without a file meet all of them), and tool
    findings meet their line neighbours, found by a sweep over each file's sorted ranges.
    The edges are exactly those of judging every pair, in the same order, at near-linear
    cost for findings spread over files and lines.
    """
    weights = idf_weights(m.text_terms for m in members)
    edges: list[Edge] = []
    for i, j in sorted(candidate_pairs(members, settings.line_tolerance)):
        edge = _judge((i, j), members[i], members[j], weights, settings)
        if edge is not None and edge.decision is not Decision.APART:
            edges.append(edge)
    return tuple(edges)


def candidate_pairs(members: Sequence[Member], tolerance: int) -> set[tuple[int, int]]:
    """A superset of the pairs ``_judge`` can keep, as ``(i, j)`` with ``i < j``."""
    pairs: set[tuple[int, int]] = set()
    reviewers: dict[str, list[int]] = {}
    lined: dict[str, list[tuple[int, int, int]]] = {}
    for i, m in enumerate(members):
        f = m.finding
        if f.source is not FindingSource.VERIFIER:
            reviewers.setdefault(f.file or "", []).append(i)
        span = _range(f)
        if f.file and span is not None:
            lined.setdefault(f.file, []).append((span[0], span[1], i))
    fileless = reviewers.pop("", [])
    everyone = sorted(fileless + [i for group in reviewers.values() for i in group])
    for i in fileless:
        pairs.update((min(i, j), max(i, j)) for j in everyone if j != i)
    for group in reviewers.values():
        for n, i in enumerate(group):
            pairs.update((i, j) for j in group[n + 1 :])
    for spans in lined.values():
        pairs.update(_near_tool_pairs(members, sorted(spans), tolerance))
    return pairs


def _near_tool_pairs(
    members: Sequence[Member], spans: Sequence[tuple[int, int, int]], tolerance: int
) -> list[tuple[int, int]]:
    """Pairs with a tool finding among ranges sorted by start, within the tolerance."""
    out: list[tuple[int, int]] = []
    for n, (_, end, i) in enumerate(spans):
        tool = members[i].finding.source is FindingSource.VERIFIER
        for start_j, _, j in spans[n + 1 :]:
            if start_j - end > tolerance:
                break  # sorted by start: every later range is farther still
            if tool or members[j].finding.source is FindingSource.VERIFIER:
                out.append((min(i, j), max(i, j)))
    return out


def _judge(
    pair: tuple[int, int],
    ma: Member,
    mb: Member,
    weights: dict[str, float],
    settings: SynthesisSettings,
) -> Edge | None:
    i, j = pair
    a, b = ma.finding, mb.finding
    place = place_of(a, b, settings.line_tolerance)
    if place is None:
        return None
    near = place in (Place.SAME, Place.NEAR)
    same_rule = a.rule_id is not None and a.rule_id == b.rule_id
    if near and same_rule:
        return Edge(i, j, place, 1.0, Decision.MERGE, same_rule=True)
    decided, decision = _tool_pair(ma, mb, near=near, same=place is Place.SAME)
    if decided:
        return None if decision is None else Edge(i, j, place, 1.0, decision)
    score = max(
        similarity(ma.title_terms, mb.title_terms, weights),
        similarity(ma.text_terms, mb.text_terms, weights),
    )
    # No location is no evidence of being apart: the text decides, at the near-place bar.
    threshold = settings.far_merge if place is Place.FAR else settings.near_merge
    if score >= threshold:
        decision = Decision.MERGE
    elif score >= threshold - settings.ambiguous_band and score > 0:
        decision = Decision.AMBIGUOUS
    else:
        decision = Decision.APART
    return Edge(i, j, place, round(score, 3), decision)


def _tool_pair(
    ma: Member, mb: Member, *, near: bool, same: bool
) -> tuple[bool, Decision | None]:
    """Rules for pairs with a tool finding: ``(decided, merge or apart)``; undecided pairs
    (no tool, or a tool and a reviewer at a near place on different concepts) go to text."""
    a, b = ma.finding, mb.finding
    shared = bool(shared_concepts(ma.text_terms, mb.text_terms))
    if _both_verifiers(a, b):
        # Several tools on the same lines about one concern (ruff BLE001, bandit B110 on one
        # try/except/pass) are one problem; otherwise two tool findings with different rules
        # are different problems, and one rule at two distant places is two (two queries).
        # Tools point at exact lines: two rules on neighbouring lines (an eval on one, a
        # shell command on the next) are two problems even when their words overlap.
        return True, Decision.MERGE if same and shared else None
    if _one_verifier(a, b):
        if not near:
            # A tool hit stands for its own lines only: a reviewer finding elsewhere in the
            # file (even on the same concern) is about different code; it is not absorbed.
            return True, None
        if shared:
            # Same lines, same concern (SQL injection, a secret, ...): one finding, the
            # reviewer's text with the tool's rule as corroboration.
            return True, Decision.MERGE
    return False, None


def _both_verifiers(a: CandidateFinding, b: CandidateFinding) -> bool:
    return a.source is FindingSource.VERIFIER and b.source is FindingSource.VERIFIER


def _one_verifier(a: CandidateFinding, b: CandidateFinding) -> bool:
    return (a.source is FindingSource.VERIFIER) != (b.source is FindingSource.VERIFIER)


def components(count: int, edges: Sequence[Edge]) -> tuple[tuple[int, ...], ...]:
    """Connected components over merged edges, each sorted, ordered by first member."""
    parent = list(range(count))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in edges:
        if e.decision is Decision.MERGE:
            ra, rb = root(e.a), root(e.b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for x in range(count):
        groups.setdefault(root(x), []).append(x)
    return tuple(tuple(g) for _, g in sorted(groups.items()))
