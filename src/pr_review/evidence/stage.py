"""The evidence stage as a whole: run the verifiers, then compose the evidence pack.

Its own module so that ``pr-review pack`` loads the stages up to the pack and nothing after
it (reviewers, synthesis, packet); :mod:`pr_review.pipeline` runs it first in a review.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pr_review.evidence.build import build_pack
from pr_review.evidence.settings import EvidenceConfig
from pr_review.schema.enums import TrustMode
from pr_review.schema.pack import EvidencePack
from pr_review.sources.model import PullRequest
from pr_review.verifiers.run import run_verifiers
from pr_review.verifiers.settings import VerifierSettings


class EvidenceStageConfig(EvidenceConfig, Protocol):
    """What the whole stage reads: the pack's sections and the verifiers' section."""

    @property
    def verifiers(self) -> VerifierSettings: ...


def _quiet(_: str) -> None:
    """Progress sink that drops messages."""


def build_evidence(
    pr: PullRequest,
    config: EvidenceStageConfig,
    *,
    trust_mode: TrustMode,
    progress: Callable[[str], None] = _quiet,
) -> EvidencePack:
    """Run the verifiers, then compose the evidence pack."""
    progress("running verifiers")
    verification = run_verifiers(pr, config.verifiers, trust_mode=trust_mode, progress=progress)
    progress("building the evidence pack")
    return build_pack(pr, config, verification=verification)
