"""Re-review memory: stable finding fingerprints and what changed since the last review.

A fingerprint hashes the file, the normalized text of the cited lines and the category. The
cited text is read from the diff's added lines when the diff has them, so a finding keeps its
fingerprint when unrelated edits shift it up or down; without cited code the normalized
title stands in. The packet stores the fingerprints of its surfaced findings in a hidden
state block (:mod:`pr_review.packet.state`); the next review compares against it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from pydantic import Field

from pr_review.evidence.globs import compile_glob
from pr_review.schema.base import Frozen
from pr_review.schema.finding import CandidateFinding, ReviewStatus, SynthesizedFinding
from pr_review.sources.diff import Diff
from pr_review.synthesis.settings import DismissRule
from pr_review.synthesis.text import terms

MEMORY_VERSION = 1


class MemoryEntry(Frozen):
    """One finding as remembered between reviews."""

    fingerprint: str
    title: str = ""
    file: str = ""
    status: ReviewStatus = ReviewStatus.NEW


class Dismissal(Frozen):
    """A person with write access waved a finding away; it is not shown again on the PR."""

    fingerprint: str
    by: str
    how: str = Field(description="reply (`/review dismiss`), reaction (a thumbs-down) or config")
    reason: str = ""
    title: str = ""
    file: str = ""


class ReviewMemory(Frozen):
    """What one packet remembers: the head it reviewed, the config, the findings it showed."""

    version: int = MEMORY_VERSION
    head_sha: str = ""
    config_hash: str = ""
    findings: tuple[MemoryEntry, ...] = ()
    truncated: bool = Field(
        default=False, description="Some surfaced findings did not fit the state block."
    )
    base_sha: str = Field(default="", description="The base commit the reviewed diff started from.")
    carried: tuple[CandidateFinding, ...] = Field(
        default=(),
        description="The AI reviewers' findings of this review, carried over by the next "
        "review for files that did not change (incremental re-review).",
    )
    carried_complete: bool = Field(
        default=True, description="False when `carried` lost findings to the state's size cap."
    )
    unreviewed: tuple[str, ...] = Field(
        default=(),
        description="Files with a patch that no model has reviewed as of this head (AI review "
        "skipped, a cost cap, a file too large for one call): the next review sends them again.",
    )
    dismissed: tuple[Dismissal, ...] = Field(
        default=(), description="Findings people with write access dismissed on this PR."
    )
    ignored_dismissals: tuple[Dismissal, ...] = Field(
        default=(),
        description="Dismissals by people without write access, seen by this run (shown in the "
        "packet, never kept in the state).",
    )


class MemoryDiff(Frozen):
    """Surfaced findings split by status, and the previous findings now gone."""

    new: tuple[str, ...] = ()
    still_open: tuple[str, ...] = ()
    resolved: tuple[MemoryEntry, ...] = ()
    previous_head_sha: str | None = None
    dismissed: tuple[Dismissal, ...] = ()
    ignored_dismissals: tuple[Dismissal, ...] = ()


def _normalize_code(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def fingerprint(finding: CandidateFinding, diff: Diff | None) -> str:
    """A 16-hex-digit identity of the finding that survives line shifts."""
    content = _cited_code(finding, diff)
    if not content:
        content = "title:" + " ".join(sorted(terms(finding.title)))
    key = "\x1f".join((finding.file, content, (finding.category or "").lower()))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _cited_code(finding: CandidateFinding, diff: Diff | None) -> str:
    if diff is None or not finding.file or finding.line_start is None:
        return ""
    fd = diff.file(finding.file)
    if fd is None:
        return ""
    end = finding.line_end if finding.line_end is not None else finding.line_start
    cited = [
        _normalize_code(text)
        for hunk in fd.hunks
        for number, text in hunk.added
        if finding.line_start <= number <= end
    ]
    return "\n".join(c for c in cited if c)


def _configured(f: SynthesizedFinding, rules: Sequence[DismissRule]) -> DismissRule | None:
    """The first configured dismissal that matches ``f`` (file glob and rule or fingerprint)."""
    for rule in rules:
        if rule.rule is not None and f.rule_id != rule.rule:
            continue
        if rule.fingerprint is not None and rule.fingerprint not in (f.fingerprint, f.finding_id):
            continue
        if any(compile_glob(p).matches(f.file) for p in rule.paths):
            return rule
    return None


def compare(
    previous: ReviewMemory | None,
    current: Sequence[SynthesizedFinding],
    rules: Sequence[DismissRule] = (),
) -> tuple[tuple[SynthesizedFinding, ...], MemoryDiff]:
    """Mark each surfaced finding new or still open; list the previous ones now resolved.

    Suppressed findings get no status. A finding without a fingerprint counts as new.
    """
    before = {e.fingerprint: e for e in previous.findings} if previous else {}
    waved = {d.fingerprint: d for d in previous.dismissed} if previous else {}
    marked: list[SynthesizedFinding] = []
    new: list[str] = []
    still: list[str] = []
    seen: set[str] = set()
    for f in current:
        configured = _configured(f, rules) if rules else None
        if configured is not None:
            reason = f"dismissed by the repository's configuration: {configured.reason}"
            marked.append(f.model_copy(update={"suppressed": True, "suppression_reason": reason}))
            continue
        dismissal = waved.get(f.fingerprint or f.finding_id)
        if dismissal is not None:
            seen.add(dismissal.fingerprint)
            if not dismissal.title:
                waved[dismissal.fingerprint] = dismissal.model_copy(
                    update={"title": f.title[:120], "file": f.file}
                )
            reason = f"dismissed by {dismissal.by} ({dismissal.how})"
            reason += f": {dismissal.reason}" if dismissal.reason else ""
            marked.append(f.model_copy(update={"suppressed": True, "suppression_reason": reason}))
            continue
        if f.suppressed:
            marked.append(f)
            continue
        fp = f.fingerprint or ""
        open_ = bool(fp) and fp in before
        (still if open_ else new).append(f.finding_id)
        seen.add(fp)
        status = ReviewStatus.STILL_OPEN if open_ else ReviewStatus.NEW
        marked.append(f.model_copy(update={"review_status": status}))
    resolved = tuple(
        e.model_copy(update={"status": ReviewStatus.RESOLVED})
        for fp, e in sorted(before.items())
        if fp not in seen
    )
    diff = MemoryDiff(
        new=tuple(new),
        still_open=tuple(still),
        resolved=resolved,
        previous_head_sha=previous.head_sha if previous else None,
        dismissed=tuple(waved.values()),
        ignored_dismissals=previous.ignored_dismissals if previous else (),
    )
    return tuple(marked), diff


def build_memory(
    head_sha: str,
    config_hash: str,
    findings: Sequence[SynthesizedFinding],
    *,
    base_sha: str = "",
    carried: Sequence[CandidateFinding] = (),
    unreviewed: Sequence[str] = (),
    dismissed: Sequence[Dismissal] = (),
) -> ReviewMemory:
    """The memory of this review: its surfaced findings' fingerprints, in rank order, and the
    model's findings for an incremental re-review."""
    entries = tuple(
        MemoryEntry(
            fingerprint=f.fingerprint or "",
            title=f.title[:80],
            file=f.file,
            status=f.review_status or ReviewStatus.NEW,
        )
        for f in findings
        if not f.suppressed and f.fingerprint
    )
    return ReviewMemory(
        head_sha=head_sha,
        config_hash=config_hash,
        findings=entries,
        base_sha=base_sha,
        carried=tuple(carried),
        unreviewed=tuple(unreviewed),
        dismissed=tuple(dismissed),
    )
