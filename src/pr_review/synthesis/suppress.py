"""Suppression rules: why a canonical finding is kept out of the packet.

Each rule returns a reason (a sentence a reviewer can read in ``findings.json``) or None.
Rules run in a fixed order and the first reason wins. Contested findings are exempt from
the judgement rules (severity, style, confidence, corroboration): they always reach a human.
Location rules need a diff; with ``diff=None`` they cannot judge and pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pr_review.schema.enums import (
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
    VerifierStatus,
)
from pr_review.schema.finding import CandidateFinding
from pr_review.schema.pack import Verification
from pr_review.sources.diff import Diff, FileDiff, FileStatus
from pr_review.synthesis.settings import SynthesisSettings
from pr_review.synthesis.text import concepts

LINTERS = frozenset(
    {
        "ruff",
        "flake8",
        "pylint",
        "black",
        "isort",
        "eslint",
        "prettier",
        "stylelint",
        "rubocop",
        "golangci-lint",
        "gofmt",
        "clippy",
        "rustfmt",
        "ktlint",
        "checkstyle",
        "shellcheck",
        "markdownlint",
        "yamllint",
        "biome",
    }
)
"""Verifier names whose job includes style: a style finding on their files is theirs."""

STYLE = re.compile(
    r"\b(?:naming|names? (?:is|are) not descriptive|non-descriptive|variable names?|"
    r"descriptive name|typos?|spelling|misspell\w*|whitespace|indentation|formatting|"
    r"trailing (?:space|comma)s?|semicolons?|import order|unused imports?|docstrings?|"
    r"nit(?:pick)?|code style|style|camel ?case|snake ?case|line length|blank lines?)\b",
    re.IGNORECASE,
)
"""Words of a style-only remark (the text must not also name a security concept)."""


@dataclass(frozen=True)
class Judged:
    """What suppression needs to know about a cluster besides its canonical finding."""

    canonical: CandidateFinding
    merged_confidence: Confidence
    origins: int
    contested: bool


def is_style(f: CandidateFinding) -> bool:
    """True for a style-only finding: categorised as style, or worded as one."""
    if f.category is not None:
        return f.category.lower() == "style"
    return bool(STYLE.search(f.title)) and not concepts(f"{f.title} {f.why_it_matters}")


def reason_for(
    j: Judged,
    *,
    diff: Diff | None,
    verification: Verification | None,
    settings: SynthesisSettings,
) -> str | None:
    """The first suppression reason that applies, or None when the finding surfaces."""
    location = _location_reason(j.canonical, diff, settings.line_tolerance)
    if location is not None or j.contested:
        return location
    return next(
        (r for rule in _JUDGEMENT_RULES if (r := rule(j, verification, settings)) is not None),
        None,
    )


def _refutes_nothing(j: Judged, _v: Verification | None, _s: SynthesisSettings) -> str | None:
    if j.canonical.classification is Classification.REFUTES:
        return "a refutation of a concern no other finding raised: nothing to contest"
    return None


def _below_severity(j: Judged, _v: Verification | None, s: SynthesisSettings) -> str | None:
    sev = j.canonical.severity
    if sev.weight < s.min_severity.weight:
        return f"severity {sev} is below the configured minimum ({s.min_severity})"
    return None


def _style(j: Judged, v: Verification | None, s: SynthesisSettings) -> str | None:
    return _style_reason(j.canonical, v) if s.suppress_style and is_style(j.canonical) else None


def _weak_guess(j: Judged, _v: Verification | None, _s: SynthesisSettings) -> str | None:
    contextual = j.canonical.evidence.type is EvidenceType.CONTEXTUAL_REASONING
    if contextual and j.merged_confidence is Confidence.LOW:
        return "low-confidence contextual reasoning below the evidence threshold"
    return None


def _uncorroborated(j: Judged, _v: Verification | None, s: SynthesisSettings) -> str | None:
    if j.canonical.source is not FindingSource.VERIFIER and j.origins < s.min_origins:
        return f"raised by {j.origins} independent origin(s); {s.min_origins} required to surface"
    return None


def clears_bar(f: CandidateFinding, origins: int) -> bool:
    """Whether a finding belongs in the ranked list (the evidence bar).

    A finding only tools report (one or several): high or critical severity, or medium from
    a checker that is sure of it (an undefined name, a type error). A reviewer finding: above
    low severity, and, unless critical, backed by cited code, a second origin or the reviewer's high
    confidence (the tile's threshold drops low-confidence contextual reasoning; one
    reviewer's medium-confidence reasoning is listed, not ranked).
    """
    if f.source is FindingSource.VERIFIER:
        if f.severity.weight >= Severity.HIGH.weight:
            return True
        return f.severity is Severity.MEDIUM and f.confidence is Confidence.HIGH
    if f.severity is Severity.LOW:
        return False
    contextual = f.evidence.type is EvidenceType.CONTEXTUAL_REASONING
    unsure = f.confidence is not Confidence.HIGH
    return not (contextual and unsure and origins < 2 and f.severity is not Severity.CRITICAL)


def minor_reason(j: Judged) -> str | None:
    """Why a finding is below the bar: suppressed, listed in a collapsed table."""
    f = j.canonical
    if clears_bar(f, j.origins):
        return None
    if f.source is FindingSource.VERIFIER:
        rule = f" {f.rule_id}" if f.rule_id else ""
        return (
            f"verifier-only {f.severity} finding ({f.producer}{rule}) below the bar for the "
            "ranked list; listed under Other checks"
        )
    if f.severity is Severity.LOW:
        return "low-severity note below the bar for the ranked list; listed under Minor notes"
    return (
        f"{f.severity} finding from one reviewer resting on {f.confidence}-confidence "
        "contextual reasoning only (no cited code, no second origin); listed under Minor notes"
    )


def _minor(j: Judged, _v: Verification | None, s: SynthesisSettings) -> str | None:
    return minor_reason(j) if s.list_minor else None


_JUDGEMENT_RULES = (
    _refutes_nothing,
    _below_severity,
    _style,
    _weak_guess,
    _minor,
    _uncorroborated,
)


def _style_reason(f: CandidateFinding, verification: Verification | None) -> str:
    for run in verification.verifiers if verification else ():
        if run.name.lower() not in LINTERS or run.status is VerifierStatus.SKIPPED:
            continue
        if run.files_checked and f.file not in run.files_checked:
            continue
        if run.status is VerifierStatus.PASS:
            return f"style-only finding; the linter {run.name} checked this file and passed"
        return f"style-only finding; the linter {run.name} covers this file"
    return "style-only finding (naming/formatting): linter territory, not a review finding"


def _location_reason(f: CandidateFinding, diff: Diff | None, tolerance: int) -> str | None:
    if diff is None or not f.file:
        return None
    fd = diff.file(f.file)
    if fd is None:
        return "cites a file this PR does not change"
    if f.line_start is None:
        return None
    end = f.line_end if f.line_end is not None else f.line_start
    missing = _missing_lines(fd, f.line_start, end)
    if missing is not None or not fd.hunks:
        return missing  # no hunks (binary, no patch): nothing more to check against
    touched = any(
        f.line_start <= h.new_start + h.new_length - 1 + tolerance
        and end >= h.new_start - tolerance
        for h in fd.hunks
    )
    return None if touched else "outside the changed lines"


def _missing_lines(fd: FileDiff, start: int, end: int) -> str | None:
    if start < 1 or end < start:
        return f"cited lines {start}-{end} do not exist"
    if fd.status is FileStatus.DELETED:
        return "cited lines do not exist: the PR deletes this file"
    if fd.status is FileStatus.ADDED and fd.hunks:
        last = max(h.new_start + h.new_length - 1 for h in fd.hunks)
        if start > last:
            return f"cited lines do not exist: the new file has {last} lines"
    return None
