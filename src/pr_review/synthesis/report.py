"""The synthesis report: what merged, why, and how each cluster scored."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pr_review.schema.base import Frozen
from pr_review.schema.finding import SynthesizedFinding

if TYPE_CHECKING:
    from pr_review.synthesis.core import SynthesisResult

FORMULA = (
    "score = severity (low 1, medium 2, high 3, critical 4) × merged confidence "
    "(low 1, medium 2, high 3) × verification support (contextual reasoning 1, "
    "hunk-level code 2, repo policy 2, verifier output 3); ties by severity, evidence "
    "strength, then finding id."
)


class PairReport(Frozen):
    """One judged pair inside a cluster."""

    a: str
    b: str
    place: str
    similarity: float
    decision: str
    by_model: bool = False


class ClusterReport(Frozen):
    """One cluster: its members, how they came together, and the canonical's score."""

    canonical_id: str
    member_ids: tuple[str, ...]
    strategy: str
    """exact_match, semantic_overlap, corroboration, conflict, or single."""
    origins: tuple[str, ...]
    contested_by: tuple[str, ...] = ()
    score: float
    suppressed: bool
    suppression_reason: str | None = None
    title: str
    rank: int | None = None
    pairs: tuple[PairReport, ...] = ()

    def with_rank(self, surfaced: SynthesizedFinding | None) -> ClusterReport:
        """This report with the canonical's rank (None when suppressed)."""
        return self.model_copy(update={"rank": surfaced.rank if surfaced else None})


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render_report(result: SynthesisResult) -> str:
    """Markdown: the formula, then every cluster with its strategy and score."""
    lines = [
        "# Synthesis report",
        "",
        f"Ranking: {FORMULA}",
        "",
        (
            f"{len(result.findings)} candidate findings → {len(result.clusters)} clusters; "
            f"{len(result.surfaced)} surfaced, {len(result.suppressed)} suppressed. "
            "There is no cap: the evidence threshold is the volume control."
        ),
        "",
        "| rank | cluster (canonical) | strategy | members | origins | score | outcome |",
        "|---:|---|---|---|---|---:|---|",
    ]
    for c in result.clusters:
        outcome = f"suppressed: {c.suppression_reason}" if c.suppressed else "surfaced"
        if c.contested_by:
            outcome += f"; contested by {', '.join(c.contested_by)}"
        lines.append(
            f"| {c.rank or '–'} | {c.canonical_id}: {_cell(c.title)[:90]} | {c.strategy} | "
            f"{', '.join(c.member_ids)} | {', '.join(c.origins)} | {c.score:g} | "
            f"{_cell(outcome)} |"
        )
    lines += ["", "## Merged pairs", ""]
    pairs = [p for c in result.clusters for p in c.pairs]
    if not pairs:
        lines.append("None.")
    for p in pairs:
        how = "model" if p.by_model else "deterministic"
        lines.append(
            f"- {p.a} ~ {p.b}: place {p.place}, similarity {p.similarity:.2f}, {p.decision} ({how})"
        )
    lines += ["", "## Suppressed", ""]
    for f in result.suppressed:
        lines.append(f"- {f.finding_id} ({f.producer}): {f.suppression_reason}")
    if not result.suppressed:
        lines.append("None.")
    for note in result.notes:
        lines += ["", f"Note: {note}"]
    return "\n".join(lines) + "\n"
