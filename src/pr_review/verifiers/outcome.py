"""Turning a verifier's outcome into the pack's ``VerifierRun``: scope, then status."""

from __future__ import annotations

from pr_review.schema.enums import VerifierSeverity, VerifierStatus
from pr_review.schema.pack import VerifierFinding, VerifierRun
from pr_review.verifiers.model import Checked, Context, Outcome, RawFinding, Skipped, TimedOut
from pr_review.verifiers.scope import scope_findings
from pr_review.verifiers.stage import Materialized


def status_of(findings: tuple[RawFinding, ...], *, failed: bool) -> VerifierStatus:
    """fail on any error, warn when the worst is a warning, else pass (or fail if told)."""
    severities = {f.severity for f in findings}
    if VerifierSeverity.ERROR in severities or failed:
        return VerifierStatus.FAIL
    if VerifierSeverity.WARNING in severities:
        return VerifierStatus.WARN
    return VerifierStatus.PASS


def _pack_finding(f: RawFinding) -> VerifierFinding:
    return VerifierFinding(
        file=f.path,
        line=f.line,
        message=f.message,
        severity=f.severity,
        rule_id=f.rule_id,
        end_line=f.end_line if f.end_line is not None and f.end_line != f.line else None,
    )


def to_run(
    name: str,
    outcome: Outcome,
    ctx: Context,
    staged: Materialized,
    *,
    duration_ms: int,
    capped: bool = False,
) -> VerifierRun:
    """The pack entry for one verifier."""
    match outcome:
        case Skipped(reason=reason, files_checked=files):
            return VerifierRun(
                name=name, status=VerifierStatus.SKIPPED, duration_ms=duration_ms,
                reason=reason, files_checked=files,
            )  # fmt: skip
        case TimedOut(reason=reason, files_checked=files):
            if capped:
                reason += " (the total verifier budget cut its time)"
            return VerifierRun(
                name=name, status=VerifierStatus.TIMEOUT, duration_ms=duration_ms,
                reason=reason, files_checked=files,
            )  # fmt: skip
        case Checked():
            return _checked_run(name, outcome, ctx, staged, duration_ms)


def _checked_run(
    name: str, outcome: Checked, ctx: Context, staged: Materialized, duration_ms: int
) -> VerifierRun:
    scoped = scope_findings(
        outcome.head, outcome.base, ctx.scope, staged.head_lines, staged.base_lines
    )
    kept = tuple(sorted(scoped.kept, key=lambda f: (f.path, f.line or 0, f.rule_id or "")))
    failed = outcome.failed_without_findings is not None
    notes = [n for n in (outcome.note, outcome.failed_without_findings) if n]
    if scoped.dropped:
        notes.append(
            f"{scoped.dropped} finding(s) on lines this pull request did not change, "
            "or already present in the base, were left out"
        )
    return VerifierRun(
        name=name,
        status=status_of(kept, failed=failed),
        findings=tuple(_pack_finding(f) for f in kept),
        duration_ms=duration_ms,
        reason="; ".join(notes) or None,
        files_checked=outcome.files_checked,
    )
