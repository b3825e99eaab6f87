"""The coverage section: review units, files left out for budget, generated files."""

from __future__ import annotations

from pr_review.packet.coverage import coverage
from pr_review.packet.metadata import metadata
from pr_review.packet.model import PacketInput
from pr_review.schema.pack import Diff, DiffStats, EvidencePack, PullRequestInfo
from pr_review.schema.run import LeftOutFile, ReviewMeta


def _pack() -> EvidencePack:
    return EvidencePack(
        generated_at="2026-01-01T00:00:00Z",
        wall_clock_ms=1,
        pr=PullRequestInfo(number=1, title="t", description="d", url=""),
        diff=Diff(stats=DiffStats(files_changed=2, insertions=2, deletions=0)),
    )


def test_units_and_left_out_files_are_named_with_why() -> None:
    meta = ReviewMeta(
        review_units=("billing", "api#2"),
        left_out=(LeftOutFile(path="src/docs/x.py", why="cost cap: reviewers.max_cost_usd"),),
        estimated_input_tokens=1200,
        estimated_cost_usd=0.0123,
    )
    inp = PacketInput(pack=_pack(), findings=(), meta=meta)
    text = "\n".join(coverage(inp))
    units = "**Reviewed in 2 unit(s)** of related files (riskiest first): `billing`, `api#2`."
    assert units in text
    assert "| `src/docs/x.py` | cost cap: reviewers.max_cost_usd |" in text
    assert "- Estimated before calling: 1200 input tokens, $0.0123." in metadata(inp)


def test_nothing_to_say_for_a_whole_pr_review() -> None:
    assert coverage(PacketInput(pack=_pack(), findings=(), meta=ReviewMeta())) == []
