"""Closed sets shared by every stage. Each is handled exhaustively where it is used."""

from __future__ import annotations

from enum import StrEnum


class Lane(StrEnum):
    """Risk lane of a pull request."""

    GREEN = "green"
    YELLOW = "yellow"
    RED = "red"

    @property
    def rank(self) -> int:
        """Order of the lanes, green lowest."""
        return _LANE_RANK[self]

    def at_least(self, other: Lane) -> bool:
        """True when this lane is ``other`` or higher."""
        return self.rank >= other.rank

    def raised_to(self, other: Lane) -> Lane:
        """The higher of the two lanes: lanes can only ever be raised."""
        return self if self.rank >= other.rank else other

    def next_up(self) -> Lane:
        """The next higher lane (red stays red)."""
        return {Lane.GREEN: Lane.YELLOW, Lane.YELLOW: Lane.RED, Lane.RED: Lane.RED}[self]


_LANE_RANK = {Lane.GREEN: 0, Lane.YELLOW: 1, Lane.RED: 2}


class Confidence(StrEnum):
    """How sure a judgement is."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def weight(self) -> int:
        """1 (low) to 3 (high), for ranking."""
        return {Confidence.LOW: 1, Confidence.MEDIUM: 2, Confidence.HIGH: 3}[self]

    def step_up(self) -> Confidence:
        """One step more confident (high stays high)."""
        return {
            Confidence.LOW: Confidence.MEDIUM,
            Confidence.MEDIUM: Confidence.HIGH,
            Confidence.HIGH: Confidence.HIGH,
        }[self]


class Severity(StrEnum):
    """How bad a finding is if true."""

    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def weight(self) -> int:
        """1 (low) to 4 (critical), for ranking and thresholds."""
        return {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 3, Severity.CRITICAL: 4}[self]


class Action(StrEnum):
    """What the human should do with a finding."""

    FIX = "fix"
    VERIFY = "verify"
    DISCUSS = "discuss"


class FindingSource(StrEnum):
    """Who produced a candidate finding."""

    FRESH_EYES = "fresh_eyes"
    CHALLENGER = "challenger"
    VERIFIER = "verifier"


class EvidenceType(StrEnum):
    """What a finding's evidence is, strongest first."""

    VERIFIER_OUTPUT = "verifier_output"
    HUNK_LEVEL_CODE = "hunk_level_code"
    REPO_POLICY = "repo_policy"
    CONTEXTUAL_REASONING = "contextual_reasoning"

    @property
    def strength(self) -> int:
        """4 (verifier output) down to 1 (contextual reasoning)."""
        return {
            EvidenceType.VERIFIER_OUTPUT: 4,
            EvidenceType.HUNK_LEVEL_CODE: 3,
            EvidenceType.REPO_POLICY: 2,
            EvidenceType.CONTEXTUAL_REASONING: 1,
        }[self]


class Classification(StrEnum):
    """A challenger finding's relation to what a reviewer would likely flag."""

    CONFIRMS = "confirms"
    REFUTES = "refutes"
    NOVEL = "novel"


class ChangeType(StrEnum):
    """How a pull request touched a file (evidence pack vocabulary)."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"


class FactorSeverity(StrEnum):
    """Weight of one risk factor."""

    MODERATE = "moderate"
    RED = "red"


class VerifierStatus(StrEnum):
    """Outcome of one verifier run."""

    PASS = "pass"  # noqa: S105 (a verifier status, not a password)
    FAIL = "fail"
    WARN = "warn"
    SKIPPED = "skipped"
    TIMEOUT = "timeout"


class VerifierSeverity(StrEnum):
    """Severity of one verifier finding."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class TrustMode(StrEnum):
    """Whether repository-declared commands may run on this PR's code."""

    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"


class NotReviewedReason(StrEnum):
    """Why a changed file was left out of AI review (``diff.not_reviewed``)."""

    CONFIG = "excluded-by-config"
    GENERATED = "generated"
    VENDORED = "vendored"
    NO_DIFF = "no-diff"
    LOCK_FILE = "lock-file"
    MINIFIED = "minified"
