"""Synthesis: candidate findings from every reviewer and verifier → one ranked list.

Entry point :func:`synthesize`; the clusters, suppression rules and ranking are documented
in their modules and in ``docs/packet.md``.
"""

from pr_review.synthesis.core import SynthesisResult, synthesize
from pr_review.synthesis.memory import (
    MemoryDiff,
    MemoryEntry,
    ReviewMemory,
    build_memory,
    compare,
    fingerprint,
)
from pr_review.synthesis.report import ClusterReport
from pr_review.synthesis.settings import SynthesisSettings

__all__ = [
    "ClusterReport",
    "MemoryDiff",
    "MemoryEntry",
    "ReviewMemory",
    "SynthesisResult",
    "SynthesisSettings",
    "build_memory",
    "compare",
    "fingerprint",
    "synthesize",
]
