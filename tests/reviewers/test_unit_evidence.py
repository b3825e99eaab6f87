"""A unit pays for its own evidence: the shared prefix holds the PR's summary (identical for
every unit, first, for prompt caching); each unit's prefix holds the evidence about its own
files and its diff."""

from __future__ import annotations

from pr_review.reviewers.context import build_context, summary_pack, unit_context, unit_evidence
from pr_review.reviewers.redact import Redactor
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import EvidencePack, Hotspot, Risk, RiskFactor
from pr_review.sources.diff import Diff as SourceDiff
from tests.reviewers.builders import make_pack, source_diff

SETTINGS = "src/app/settings.py"
GUIDE = "docs/guide.md"


def _pack() -> tuple[SourceDiff, EvidencePack]:
    diff = source_diff()
    pack = make_pack(
        diff,
        hotspots=(
            Hotspot(
                file=SETTINGS,
                line_start=2,
                line_end=2,
                category="secrets",
                why="a key",
                risk_contributing=True,
            ),
        ),
    )
    factor = RiskFactor(factor="secrets", files=(SETTINGS,), severity=FactorSeverity.RED, why="k")
    return diff, pack.model_copy(update={"risk": Risk(lane=Lane.RED, factors=(factor,))})


def test_the_summary_keeps_the_lane_and_drops_per_file_evidence() -> None:
    _, pack = _pack()
    summary = summary_pack(pack)
    assert summary.risk == pack.risk
    assert summary.diff.stats == pack.diff.stats
    assert summary.hotspots == ()
    assert summary.diff.touched_files == ()
    assert all(run.findings == () for run in summary.verification.verifiers)


def test_each_unit_carries_only_its_own_files_evidence() -> None:
    _, pack = _pack()
    own = unit_evidence(pack, frozenset({SETTINGS}))
    assert SETTINGS in own
    assert '"hotspots"' in own
    assert '"verifier_findings"' in own
    other = unit_evidence(pack, frozenset({GUIDE}))
    assert SETTINGS not in other
    assert GUIDE in other  # its touched-file entry


def test_the_shared_prefix_is_identical_across_units_and_units_differ() -> None:
    diff, pack = _pack()
    redactor = Redactor()
    token = lambda: "t0k"  # noqa: E731 - one fence token for both contexts
    base = build_context(pack, diff.raw, redactor, diff_in_prefix=False, token_factory=token)
    first = unit_context(base, "diff a", redactor, unit_evidence(pack, frozenset({SETTINGS})))
    second = unit_context(base, "diff b", redactor, unit_evidence(pack, frozenset({GUIDE})))
    assert first.shared_prefix == second.shared_prefix == base.shared_prefix
    assert '"lane": "red"' in base.shared_prefix
    assert '"hotspots": []' in base.shared_prefix
    assert first.unit_prefix is not None
    assert second.unit_prefix is not None
    assert "a key" in first.unit_prefix
    assert "a key" not in second.unit_prefix
    whole = build_context(pack, diff.raw, redactor, token_factory=token)
    assert "a key" in whole.shared_prefix  # a whole-PR review still sends the whole pack
