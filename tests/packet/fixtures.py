"""Evidence packs, run metadata and synthesized findings for packet tests."""

from __future__ import annotations

from typing import Any

from pr_review.schema.enums import (
    Action,
    ChangeType,
    Confidence,
    EvidenceType,
    FactorSeverity,
    FindingSource,
    Lane,
    Severity,
    VerifierSeverity,
    VerifierStatus,
)
from pr_review.schema.finding import CandidateFinding, Evidence, SynthesizedFinding
from pr_review.schema.pack import (
    Authorship,
    Diff,
    DiffStats,
    EvidencePack,
    Hotspot,
    MissingArtifact,
    PullRequestInfo,
    Risk,
    RiskFactor,
    TouchedFile,
    Verification,
    VerifierFinding,
    VerifierRun,
)
from pr_review.schema.run import ModelCall, ReviewerRun, ReviewerStatus, ReviewMeta
from pr_review.synthesis import SynthesisSettings, synthesize

WEB = "https://github.com/acme/shop"
SHA = "0123456789abcdef0123456789abcdef01234567"


def pack(lane: Lane, **kw: Any) -> EvidencePack:
    """A pack in the given lane; red and yellow carry factors, hotspots, artifacts."""
    factors: tuple[RiskFactor, ...] = ()
    if lane is Lane.RED:
        factors = (
            RiskFactor(
                factor="auth-sensitive",
                files=("src/auth/session.py",),
                severity=FactorSeverity.RED,
                why="session handling changed",
            ),
            RiskFactor(
                factor="cache-invalidation",
                files=("src/cache/redis_client.py",),
                severity=FactorSeverity.RED,
            ),
        )
    elif lane is Lane.YELLOW:
        factors = (
            RiskFactor(
                factor="business-logic",
                files=("src/service/cart.py",),
                severity=FactorSeverity.MODERATE,
            ),
        )
    base: dict[str, Any] = {
        "generated_at": "2026-01-01T00:00:00Z",
        "wall_clock_ms": 1200,
        "pr": PullRequestInfo(
            number=7,
            title="Cache sessions",
            description="Adds a cache.",
            url=f"{WEB}/pull/7",
            head_sha=SHA,
        ),
        "authorship": Authorship(
            ai_assisted=lane is Lane.RED,
            ai_tools=("claude",) if lane is Lane.RED else (),
            ai_commit_ratio=0.5,
            total_commits=2,
        ),
        "diff": Diff(
            stats=DiffStats(files_changed=2, insertions=40, deletions=3),
            touched_files=(
                TouchedFile(
                    path="src/cache/redis_client.py",
                    change_type=ChangeType.MODIFIED,
                    subsystem="cache",
                    insertions=40,
                    deletions=3,
                ),
            ),
            subsystems=("cache",),
        ),
        "risk": Risk(
            lane=lane,
            confidence=Confidence.MEDIUM if lane is Lane.YELLOW else Confidence.HIGH,
            factors=factors,
        ),
        "verification": Verification(
            verifiers=(
                VerifierRun(name="ruff", status=VerifierStatus.PASS, duration_ms=300),
                VerifierRun(
                    name="bandit",
                    status=VerifierStatus.FAIL,
                    duration_ms=900,
                    findings=(
                        VerifierFinding(
                            file="src/api/handler.py",
                            line=90,
                            message="B104: binding to all interfaces",
                            severity=VerifierSeverity.WARNING,
                        ),
                    ),
                ),
                VerifierRun(
                    name="mypy", status=VerifierStatus.SKIPPED, reason="no mypy configuration"
                ),
            )
        ),
        "hotspots": (
            Hotspot(
                file="src/cache/redis_client.py",
                line_start=30,
                line_end=40,
                category="cache-invalidation",
                why="cache key construction",
                risk_contributing=lane is not Lane.GREEN,
            ),
        ),
        "missing_artifacts": (
            (
                MissingArtifact(
                    artifact="tests",
                    why_required="cache code changed without tests",
                    suggested_location="tests/cache/",
                    required=True,
                ),
            )
            if lane is Lane.RED
            else ()
        ),
    }
    base.update(kw)
    return EvidencePack(**base)


def meta(*, ai: bool = True) -> ReviewMeta:
    """Run metadata: fresh-eyes ran (or was skipped), challenger per lane."""
    runs = [
        ReviewerRun(
            name="fresh_eyes",
            status=ReviewerStatus.RAN,
            model="claude-sonnet-4-5",
            duration_ms=8000,
            calls=(
                ModelCall(
                    reviewer="fresh_eyes",
                    model="claude-sonnet-4-5",
                    input_tokens=12000,
                    output_tokens=900,
                    cost_usd=0.05,
                ),
            ),
        ),
        ReviewerRun(
            name="challenger", status=ReviewerStatus.SKIPPED, reason="green lane: not triggered"
        ),
    ]
    if not ai:
        runs = [
            ReviewerRun(
                name="fresh_eyes",
                status=ReviewerStatus.SKIPPED,
                reason="ANTHROPIC_API_KEY is not set",
            )
        ]
    return ReviewMeta(reviewers=tuple(runs), wall_clock_ms=15000)


def cand(fid: str, **kw: Any) -> CandidateFinding:
    """A candidate finding with sensible defaults."""
    base: dict[str, Any] = {
        "finding_id": fid,
        "source": FindingSource.FRESH_EYES,
        "title": "Cache key uses unsanitized input",
        "file": "src/cache/redis_client.py",
        "line_start": 34,
        "line_end": 36,
        "why_it_matters": "Another user's cache entry can be overwritten.",
        "evidence": Evidence(
            type=EvidenceType.HUNK_LEVEL_CODE, detail="key = f'session:{session_id}'"
        ),
        "confidence": Confidence.HIGH,
        "severity": Severity.HIGH,
        "action": Action.FIX,
    }
    base.update(kw)
    return CandidateFinding(**base)


def synthesized(*cands: CandidateFinding) -> tuple[SynthesizedFinding, ...]:
    """Candidates through synthesis (no diff)."""
    return synthesize(cands, diff=None, verification=None, settings=SynthesisSettings()).findings


def many(n: int, text_len: int = 400) -> tuple[SynthesizedFinding, ...]:
    """``n`` distinct surfaced findings with long texts (for the size budget)."""
    cands = [
        cand(
            f"f{i:04d}",
            title=f"Problem {i} in handler{i} loop{i}",
            file=f"src/m{i}.py",
            line_start=i + 1,
            line_end=i + 2,
            why_it_matters=f"consequence{i} " * (text_len // 12),
            evidence=Evidence(
                type=EvidenceType.HUNK_LEVEL_CODE, detail=f"code{i} " * (text_len // 6)
            ),
        )
        for i in range(n)
    ]
    return synthesized(*cands)
