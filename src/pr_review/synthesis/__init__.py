"""Synthesis: candidate findings from every reviewer and verifier → one ranked list.

Entry point :func:`synthesize`; the clusters, suppression rules and ranking are documented
in their modules and in ``docs/packet.md``. The names below are loaded on first use, so
reading the configuration (which imports :mod:`.settings`) does not import the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pr_review.lazy import exports

if TYPE_CHECKING:
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
_HOMES = {
    "ClusterReport": "report",
    "MemoryDiff": "memory",
    "MemoryEntry": "memory",
    "ReviewMemory": "memory",
    "SynthesisResult": "core",
    "SynthesisSettings": "settings",
    "build_memory": "memory",
    "compare": "memory",
    "fingerprint": "memory",
    "synthesize": "core",
}

__getattr__ = exports(__name__, _HOMES)
