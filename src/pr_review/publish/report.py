"""Texts and annotations derived from a review: check-run output, job summary, annotations.

Pure functions of the review's values; the action decides where each goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pr_review.packet.neutralize import cell, clip, code, inline
from pr_review.publish.workflow import Annotation, Level
from pr_review.schema.enums import Severity
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import Risk

_CHECK_LEVEL = {
    Severity.CRITICAL: "failure",
    Severity.HIGH: "failure",
    Severity.MEDIUM: "warning",
    Severity.LOW: "notice",
}
_WORKFLOW_LEVEL = {
    Severity.CRITICAL: Level.ERROR,
    Severity.HIGH: Level.ERROR,
    Severity.MEDIUM: Level.WARNING,
    Severity.LOW: Level.NOTICE,
}


def surfaced(findings: Sequence[SynthesizedFinding]) -> tuple[SynthesizedFinding, ...]:
    """The findings the packet shows."""
    return tuple(f for f in findings if not f.suppressed)


def check_summary(risk: Risk, findings: Sequence[SynthesizedFinding], head_sha: str) -> str:
    """Check-run summary: lane, factors, findings (Markdown)."""
    lines = [
        f"**Lane: {risk.lane.value}** (confidence {risk.confidence.value}) for `{head_sha[:12]}`",
        "",
    ]
    red = risk.why_red()
    if red:
        lines += [f"**Why red:** {inline(red, 300)}", ""]
    if risk.factors:
        lines += ["| factor | severity | files |", "|---|---|---|"]
        for factor in risk.factors:
            files = ", ".join(code(p).replace("|", "\\|") for p in factor.files[:5])
            more = f" +{len(factor.files) - 5}" if len(factor.files) > 5 else ""
            lines.append(f"| {cell(factor.factor)} | {factor.severity.value} | {files}{more} |")
        lines.append("")
    shown = surfaced(findings)
    lines.append(f"**Findings:** {len(shown)}")
    for f in shown[:50]:
        where = code(f"{f.file}:{f.line_start}" if f.line_start else f.file)
        lines.append(f"- {f.severity.value}: {inline(f.title, 300)} ({where})")
    return "\n".join(lines)


def check_annotations(findings: Sequence[SynthesizedFinding]) -> list[dict[str, Any]]:
    """Check-run annotations of the surfaced findings that point at lines."""
    out = []
    for f in surfaced(findings):
        if f.line_start is None or not f.file:
            continue
        end = f.line_end if f.line_end is not None and f.line_end >= f.line_start else f.line_start
        out.append(
            {
                "path": f.file,
                "start_line": f.line_start,
                "end_line": end,
                "annotation_level": _CHECK_LEVEL[f.severity],
                "title": clip(f.title, 255),
                "message": f.why_it_matters[:60_000] or f.title,
            }
        )
    return out


def workflow_annotations(findings: Sequence[SynthesizedFinding]) -> list[Annotation]:
    """Workflow annotations of the surfaced findings (the caller caps them per type)."""
    return [
        Annotation(
            level=_WORKFLOW_LEVEL[f.severity],
            message=f.why_it_matters or f.title,
            title=f.title,
            file=f.file or None,
            line=f.line_start,
            end_line=f.line_end,
        )
        for f in surfaced(findings)
    ]


def job_summary(status_lines: Sequence[str], packet_markdown: str | None) -> str:
    """The step summary: what the action did, then the packet."""
    parts = ["## pr-review-guardrails", "", *(f"- {line}" for line in status_lines)]
    if packet_markdown:
        parts += ["", packet_markdown]
    return "\n".join(parts) + "\n"
