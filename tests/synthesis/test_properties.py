"""Properties: synthesis never loses a finding and does not depend on input order."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pr_review.schema.finding import CandidateFinding
from pr_review.synthesis import SynthesisSettings, synthesize
from tests.synthesis.strategies import candidates

findings = st.lists(candidates(), max_size=14)


@settings(max_examples=150, deadline=None)
@given(findings, st.integers(1, 3))
def test_every_input_comes_out_once_surfaced_or_suppressed_with_a_reason(
    inputs: list[CandidateFinding], min_origins: int
) -> None:
    result = synthesize(
        inputs, diff=None, verification=None, settings=SynthesisSettings(min_origins=min_origins)
    )
    assert Counter(f.finding_id for f in result.findings) == Counter(f.finding_id for f in inputs)
    for f in result.findings:
        assert f.suppressed == (f.suppression_reason is not None)
        assert f.suppressed or f.rank is not None
    merged = Counter(i for f in result.findings for i in f.merged_ids)
    assert sum(merged.values()) == sum(
        1
        for f in result.findings
        if f.suppression_reason
        and f.suppression_reason.startswith(("merged", "reviewer", "corroborates"))
    )


@settings(max_examples=100, deadline=None)
@given(findings, st.randoms(use_true_random=False))
def test_output_does_not_depend_on_input_order(inputs: list[CandidateFinding], rnd) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(inputs)
    rnd.shuffle(shuffled)
    cfg = SynthesisSettings()
    a = synthesize(inputs, diff=None, verification=None, settings=cfg)
    b = synthesize(shuffled, diff=None, verification=None, settings=cfg)
    assert a.findings == b.findings
    assert a.clusters == b.clusters
