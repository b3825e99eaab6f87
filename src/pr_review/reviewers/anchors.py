"""Model findings checked against the diff and turned into candidate findings.

A finding must cite a file of the diff and head-side (RIGHT) lines that a hunk shows: added
or context lines. Anything else is dropped and counted, never moved to a nearby line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pr_review.reviewers.output import ChallengerFinding, InjectionReport, ModelFinding
from pr_review.reviewers.redact import Redactor
from pr_review.reviewers.untrusted import InjectionHit
from pr_review.schema.enums import (
    Action,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
)
from pr_review.schema.finding import CandidateFinding, Evidence
from pr_review.sources.diff import Diff

INJECTION_CATEGORY = "prompt-injection"
INJECTION_TITLE = "Instructions aimed at the reviewer"
_INJECTION_WHY = (
    "Text in this pull request tries to instruct an AI reviewer (to ignore its rules, approve, "
    "skip or stay silent). It was treated as data and ignored, but a person should ask why it "
    "is there: it may be an attempt to slip a change past review."
)


@dataclass(frozen=True)
class AnchorIndex:
    """Which head-side lines of which files a finding may cite."""

    lines: dict[str, frozenset[int]]
    added: dict[str, dict[int, str]]

    @classmethod
    def from_diff(cls, diff: Diff, only: Iterable[str] | None = None) -> AnchorIndex:
        """Index every file of ``diff`` (or only the paths in ``only``)."""
        wanted = set(only) if only is not None else None
        lines: dict[str, frozenset[int]] = {}
        added: dict[str, dict[int, str]] = {}
        for file in diff.files:
            if wanted is not None and file.path not in wanted:
                continue
            lines[file.path] = frozenset(n for h in file.hunks for n in h.new_range)
            added[file.path] = {n: text for h in file.hunks for n, text in h.added}
        return cls(lines=lines, added=added)

    def resolve(self, path: str) -> str | None:
        """The indexed path a model's path names (a leading ``./`` is tolerated)."""
        for candidate in (path, path.removeprefix("./")):
            if candidate in self.lines:
                return candidate
        return None

    def valid(self, path: str, start: int, end: int | None) -> bool:
        """True when both ends of the range are lines a hunk shows."""
        shown = self.lines.get(path, frozenset())
        last = start if end is None else end
        return last >= start and start in shown and last in shown

    def checked_line(self, path: str | None, line: int | None) -> int | None:
        """``line`` when it is a line a hunk of ``path`` shows, else None."""
        if path is None or line is None or not self.valid(path, line, None):
            return None
        return line

    def snippet(self, path: str, start: int, end: int | None) -> str | None:
        """The added lines of the range, as ``+text`` lines (None when none were added)."""
        rows = self.added.get(path, {})
        last = start if end is None else end
        picked = [f"+{rows[n]}" for n in range(start, last + 1) if n in rows]
        return "\n".join(picked[:20]) or None


def to_candidates(
    findings: Sequence[ModelFinding],
    *,
    source: FindingSource,
    origin: str,
    index: AnchorIndex,
    redactor: Redactor,
) -> tuple[list[CandidateFinding], int]:
    """Anchored findings as candidates, and how many were dropped for a bad anchor."""
    kept: list[CandidateFinding] = []
    dropped = 0
    for finding in findings:
        path = index.resolve(finding.file)
        if path is None or not index.valid(path, finding.line_start, finding.line_end):
            dropped += 1
            continue
        snippet = index.snippet(path, finding.line_start, finding.line_end)
        hunk = redactor.redact(snippet) if snippet else None
        kept.append(
            CandidateFinding(
                finding_id=f"{origin}-{len(kept) + 1}",
                source=source,
                title=finding.title,
                file=path,
                line_start=finding.line_start,
                line_end=finding.line_end or finding.line_start,
                hunk=hunk,
                why_it_matters=finding.why_it_matters,
                evidence=Evidence(type=finding.evidence_type, detail=finding.evidence_detail),
                confidence=finding.confidence,
                severity=finding.severity,
                action=finding.action,
                requires_human=finding.requires_human,
                origin=origin,
                classification=(
                    finding.classification if isinstance(finding, ChallengerFinding) else None
                ),
                category=finding.category,
                fingerprint=fingerprint(path, finding.category, hunk or finding.title),
                replacement=_clean(finding.replacement, redactor.redact),
            )
        )
    return kept, dropped


def fingerprint(path: str, category: str, cited: str) -> str:
    """Stable identity across reviews: file, category and the cited code, whitespace-folded."""
    folded = " ".join(cited.split())
    return hashlib.sha256(f"{path}\n{category}\n{folded}".encode()).hexdigest()[:16]


def injection_findings(
    hits: Sequence[InjectionHit],
    reports: Sequence[tuple[str, FindingSource, InjectionReport]],
    index: AnchorIndex,
) -> list[CandidateFinding]:
    """One finding per place where text aimed at the reviewer was found (detector or model)."""
    out: dict[tuple[str, str, int | None], CandidateFinding] = {}
    for hit in hits:
        key = (hit.location, hit.file or "", hit.line)
        out.setdefault(
            key,
            _injection(
                key,
                hit.quote,
                origin="injection_guard",
                source=FindingSource.VERIFIER,
                evidence=EvidenceType.VERIFIER_OUTPUT,
                confidence=Confidence.HIGH,
                how=f"rule {hit.rule}",
            ),
        )
    for origin, source, report in reports:
        file = index.resolve(report.file) if report.file else None
        line = index.checked_line(file, report.line)
        key = (report.location, file or "", line)
        evidence = (
            EvidenceType.HUNK_LEVEL_CODE if line is not None else EvidenceType.CONTEXTUAL_REASONING
        )
        out.setdefault(
            key,
            _injection(
                key,
                report.quote,
                origin=origin,
                source=source,
                evidence=evidence,
                confidence=Confidence.MEDIUM,
                how="reported by the model",
            ),
        )
    return list(out.values())


def _injection(
    key: tuple[str, str, int | None],
    quote: str,
    *,
    origin: str,
    source: FindingSource,
    evidence: EvidenceType,
    confidence: Confidence,
    how: str,
) -> CandidateFinding:
    location, file, line = key
    where = f"{file}:{line}" if file and line else location.replace("_", " ")
    return CandidateFinding(
        finding_id=f"{origin}-injection-{fingerprint(file, location, str(line) + quote)[:8]}",
        source=source,
        title=f"{INJECTION_TITLE} in {where}",
        file=file,
        line_start=line,
        line_end=line,
        why_it_matters=_INJECTION_WHY,
        evidence=Evidence(type=evidence, detail=f"{how}: \u201c{quote}\u201d"),
        confidence=confidence,
        severity=Severity.MEDIUM,
        action=Action.VERIFY,
        requires_human=True,
        origin=origin,
        category=INJECTION_CATEGORY,
        fingerprint=fingerprint(file, INJECTION_CATEGORY, f"{location}:{line}"),
    )


def _clean(replacement: str | None, redact: Callable[[str], str]) -> str | None:
    """A replacement the author could apply: none that redaction would change or that holds a
    redaction placeholder (the model saw placeholders, never the values)."""
    if not replacement or "[REDACTED" in replacement or redact(replacement) != replacement:
        return None
    return replacement
