"""Bucketed pair judging keeps exactly the edges of judging every pair."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pr_review.schema.finding import CandidateFinding
from pr_review.sources.diff_model import Diff, FileDiff, FileStatus
from pr_review.synthesis import SynthesisSettings
from pr_review.synthesis.cluster import Decision, Edge, Member, _judge, judge_pairs, members_of
from pr_review.synthesis.text import idf_weights
from tests.synthesis.strategies import candidates


def every_pair(members: tuple[Member, ...], config: SynthesisSettings) -> tuple[Edge, ...]:
    """The reference: judge all n*(n-1)/2 pairs, in (a, b) order."""
    weights = idf_weights(m.text_terms for m in members)
    edges = []
    for i in range(len(members)):
        for j in range(i + 1, len(members)):
            e = _judge((i, j), members[i], members[j], weights, config)
            if e is not None and e.decision is not Decision.APART:
                edges.append(e)
    return tuple(edges)


@settings(max_examples=300, deadline=None)
@given(st.lists(candidates(), max_size=24), st.integers(0, 12))
def test_bucketed_edges_equal_every_pair_edges(
    inputs: list[CandidateFinding], tolerance: int
) -> None:
    config = SynthesisSettings(line_tolerance=tolerance)
    members = members_of(inputs)
    assert judge_pairs(members, config) == every_pair(members, config)


def test_diff_file_index_returns_the_first_file_for_a_path() -> None:
    first = FileDiff(path="a.py", status=FileStatus.ADDED)
    diff = Diff(
        files=(
            FileDiff(path="b.py", status=FileStatus.ADDED),
            first,
            FileDiff(path="a.py", status=FileStatus.MODIFIED),
        ),
        raw="",
    )
    assert diff.file("a.py") is first
    assert diff.file("c.py") is None
