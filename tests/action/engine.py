"""A stand-in review engine for in-process action tests: the lane and findings are given.

The action's own logic (events, gate, publishing, races) is what these tests exercise; the
real pipeline is exercised by the subprocess tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pr_review.action_review import Review
from pr_review.schema.enums import Action, Confidence, EvidenceType, FindingSource, Lane, Severity
from pr_review.schema.finding import Evidence, SynthesizedFinding
from pr_review.schema.pack import Diff as PackDiff
from pr_review.schema.pack import DiffStats, EvidencePack, PullRequestInfo, Risk
from pr_review.schema.run import ReviewMeta


@dataclass(frozen=True)
class FakeOutcome:
    """The fields of ``ReviewOutcome`` the action reads."""

    pack: EvidencePack
    findings: tuple[SynthesizedFinding, ...]
    packet_markdown: str
    meta: ReviewMeta = field(default_factory=ReviewMeta)


def finding(
    path: str, line: int, *, title: str = "Weak token check", fp: str = "fp1"
) -> SynthesizedFinding:
    """A surfaced, high-confidence finding on ``path:line``."""
    return SynthesizedFinding(
        finding_id=f"id-{fp}",
        source=FindingSource.FRESH_EYES,
        title=title,
        file=path,
        line_start=line,
        line_end=line,
        why_it_matters="Timing attacks can recover the token.",
        evidence=Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="line"),
        confidence=Confidence.HIGH,
        severity=Severity.HIGH,
        action=Action.FIX,
        merged_confidence=Confidence.HIGH,
        fingerprint=fp,
    )


@dataclass
class FakeEngine:
    """Counts reviews; ``during`` runs inside the review (to move the head, say)."""

    lane: Lane
    findings: tuple[SynthesizedFinding, ...] = ()
    during: Callable[[], None] | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)

    def review(self, pr: Any, config: Any, **kwargs: Any) -> FakeOutcome:
        """Return the scripted outcome."""
        self.calls.append({"pr": pr, "config": config, **kwargs})
        if self.during is not None:
            self.during()
        pack = EvidencePack(
            generated_at="2026-01-01T00:00:00Z",
            wall_clock_ms=1,
            pr=PullRequestInfo(number=pr.number, title=pr.title, description=pr.body, url=pr.url),
            diff=PackDiff(
                stats=DiffStats(files_changed=len(pr.diff.files), insertions=0, deletions=0)
            ),
            risk=Risk(lane=self.lane),
        )
        packet = f"## Reviewer packet\n\nLane **{self.lane.value}** for `{pr.head_sha}`\n"
        return FakeOutcome(pack, self.findings, packet)

    def write_outputs(self, outcome: Any, out_dir: Path) -> None:
        """Write the packet as the pipeline does."""
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "packet.md").write_text(outcome.packet_markdown, encoding="utf-8")
        (out_dir / "findings.json").write_text(json.dumps([]), encoding="utf-8")

    def engine(self) -> Review:
        """As the action's collaborator."""
        return Review(self.review, self.write_outputs)
