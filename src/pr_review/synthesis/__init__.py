"""Synthesis: candidate findings from every reviewer and verifier → one ranked list.

Entry point :func:`synthesize`; the clusters, suppression rules and ranking are documented
in their modules and in ``docs/packet.md``. The names below are loaded on first use, so
reading the configuration (which imports :mod:`.settings`) does not import the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
