"""What the packet renderers take: one frozen value."""

from __future__ import annotations

from dataclasses import dataclass

from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack
from pr_review.schema.run import ReviewMeta
from pr_review.synthesis.memory import MemoryDiff, ReviewMemory


@dataclass(frozen=True)
class PacketInput:
    """Everything a packet shows. ``findings`` may include suppressed ones (never shown)."""

    pack: EvidencePack
    findings: tuple[SynthesizedFinding, ...]
    meta: ReviewMeta
    repo_web_url: str | None = None
    """e.g. ``https://github.com/owner/repo``; None for a local review (no links)."""
    head_sha: str = ""
    """Commit the links point at; defaults to the pack's head sha."""
    memory_diff: MemoryDiff | None = None
    state: ReviewMemory | None = None
    """The state block to embed; None builds it from the surfaced findings."""
    config_hash: str = ""

    @property
    def surfaced(self) -> tuple[SynthesizedFinding, ...]:
        """Surfaced findings in rank order."""
        shown = [f for f in self.findings if not f.suppressed]
        return tuple(sorted(shown, key=lambda f: (f.rank or 10**9, f.finding_id)))

    @property
    def minor(self) -> tuple[SynthesizedFinding, ...]:
        """Findings below the bar for the ranked list (listed in collapsed tables), by place."""
        listed = [f for f in self.findings if f.suppressed and f.minor]
        return tuple(sorted(listed, key=lambda f: (f.file, f.line_start or 0, f.finding_id)))

    @property
    def sha(self) -> str:
        """The head commit reviewed."""
        return self.head_sha or self.pack.pr.head_sha
