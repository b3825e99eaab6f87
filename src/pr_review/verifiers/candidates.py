"""Verifier findings as candidate findings for the synthesizer.

Verifier output is the strongest evidence a finding can have (``verifier_output``). Each
finding carries its tool (``origin``), rule id, category, and a fingerprint that survives
line shifts: sha256 over the file, the cited lines' content (whitespace-normalized) and the
rule, never the line number. Secret findings never carry the line's text (it holds the
secret): their ``hunk`` is None; any other finding's cited code has every recognizable secret
masked (a bandit B105 line holds the password it flags).
"""

from __future__ import annotations

import hashlib
import re

from pr_review.schema.enums import (
    Action,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
    VerifierSeverity,
)
from pr_review.schema.finding import CandidateFinding, Evidence
from pr_review.schema.pack import Verification, VerifierFinding, VerifierRun
from pr_review.sources.diff import Diff
from pr_review.verifiers.model import Category
from pr_review.verifiers.rule_catalog import rule_text, title_for
from pr_review.verifiers.sanitize import mask_secrets
from pr_review.verifiers.secrets import HEURISTIC_DETECTORS, detector_rule_id

_BUILTIN_CATEGORY = {
    "ruff": Category.LINT,
    "bandit": Category.SECURITY,
    "secrets": Category.SECRETS,
    "mypy": Category.TYPE,
    "oxlint": Category.LINT,
    "shellcheck": Category.LINT,
    "hadolint": Category.LINT,
    "zizmor": Category.SECURITY,
    "sinks": Category.SECURITY,
}

_WHY = {
    Category.LINT: "The linter flags code this pull request added or changed; its errors "
    "(undefined names, unused values, syntax) are usually real defects.",
    Category.SECURITY: "Static security analysis flags a pattern on a changed line that is a "
    "common source of vulnerabilities (injection, unsafe calls, weak crypto).",
    Category.SECRETS: "A credential committed to the repository must be treated as leaked: "
    "revoke and rotate it, and load it from the environment or a secret store.",
    Category.TYPE: "The type checker this repository configures reports an error on a changed "
    "line; such errors are often crashes at run time.",
    Category.CUSTOM: "A check this repository declares reports a problem on a changed line.",
}


def category_of(run_name: str) -> Category:
    """The category of a verifier by its pack name (``custom:*`` is custom)."""
    return _BUILTIN_CATEGORY.get(run_name, Category.CUSTOM)


def severity_for(category: Category, severity: VerifierSeverity) -> Severity:
    """Finding severity from the tool's: secrets critical/high, bandit HIGH high, lint low."""
    match category:
        case Category.SECRETS:
            return {
                VerifierSeverity.ERROR: Severity.CRITICAL,
                VerifierSeverity.WARNING: Severity.HIGH,
                VerifierSeverity.INFO: Severity.LOW,
            }[severity]
        case Category.SECURITY:
            return {
                VerifierSeverity.ERROR: Severity.HIGH,
                VerifierSeverity.WARNING: Severity.MEDIUM,
                VerifierSeverity.INFO: Severity.LOW,
            }[severity]
        case Category.LINT | Category.TYPE | Category.CUSTOM:
            return Severity.MEDIUM if severity is VerifierSeverity.ERROR else Severity.LOW


def confidence_for(category: Category, severity: VerifierSeverity) -> Confidence:
    """Deterministic checkers are sure of what they report; pattern scanners less so."""
    match category:
        case Category.LINT | Category.TYPE:
            return Confidence.HIGH
        case Category.SECRETS:
            return Confidence.HIGH if severity is VerifierSeverity.ERROR else Confidence.MEDIUM
        case Category.SECURITY | Category.CUSTOM:
            return Confidence.MEDIUM


def action_for(category: Category, severity: VerifierSeverity) -> Action:
    """Secrets and errors are to fix; the rest (and placeholder-looking secrets) to verify."""
    if severity is VerifierSeverity.INFO:
        return Action.VERIFY
    if category is Category.SECRETS or severity is VerifierSeverity.ERROR:
        return Action.FIX
    return Action.VERIFY


def normalize(text: str) -> str:
    """Whitespace-insensitive form of cited code: stripped, inner runs collapsed."""
    return "\n".join(re.sub(r"\s+", " ", line).strip() for line in text.splitlines())


def fingerprint(file: str, cited: str, rule_id: str | None) -> str:
    """sha256 over file, normalized cited content and rule id (no line number)."""
    payload = "\0".join((file, normalize(cited), rule_id or ""))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class AddedLines:
    """Each file's added lines by number, built once per file on first use."""

    def __init__(self, diff: Diff) -> None:
        self._diff = diff
        self._files: dict[str, dict[int, str] | None] = {}

    def of(self, path: str) -> dict[int, str] | None:
        """``path``'s added lines, or None when the PR did not touch it."""
        if path not in self._files:
            file_diff = self._diff.file(path)
            self._files[path] = (
                None
                if file_diff is None
                else {n: text for h in file_diff.hunks for n, text in h.added}
            )
        return self._files[path]


def _cited_lines(added_lines: AddedLines, finding: VerifierFinding) -> str | None:
    """The added lines the finding points at, joined; None when none of them was added."""
    added = added_lines.of(finding.file)
    if added is None or finding.line is None:
        return None
    last = finding.end_line or finding.line
    cited = [added[n] for n in range(finding.line, last + 1) if n in added]
    return "\n".join(cited) if cited else None


def _candidate(run: VerifierRun, finding: VerifierFinding, added: AddedLines) -> CandidateFinding:
    category = category_of(run.name)
    cited = _cited_lines(added, finding)
    # Without cited added lines (a new problem on an untouched line), the message stands in
    # for the content; it names the problem, not the position.
    digest = fingerprint(finding.file, cited if cited is not None else finding.message,
                         finding.rule_id)  # fmt: skip
    rule = f" {finding.rule_id}" if finding.rule_id else ""
    where = f"{finding.file}:{finding.line}" if finding.line else finding.file
    entry = rule_text(run.name, finding.rule_id)
    why = f"{entry.why} Fix: {entry.fix}" if entry is not None else _WHY[category]
    severity = severity_for(category, finding.severity)
    if entry is not None and entry.severity is not None and (
        category is not Category.SECRETS
    ):
        severity = entry.severity
    # A secrets guess on a placeholder value (INFO) is information, not a leak to rotate.
    leak = category is Category.SECRETS and finding.severity is not VerifierSeverity.INFO
    return CandidateFinding(
        finding_id=f"verifier:{run.name}:{digest[:12]}",
        source=FindingSource.VERIFIER,
        title=title_for(run.name, finding.rule_id, finding.file)
        + (f" and {finding.count - 1:,} more hit(s)" if finding.count > 1 else ""),
        file=finding.file,
        line_start=finding.line,
        line_end=finding.end_line or finding.line,
        hunk=None if category is Category.SECRETS or cited is None else mask_secrets(cited),
        why_it_matters=why,
        evidence=Evidence(
            type=EvidenceType.VERIFIER_OUTPUT,
            detail=f"{run.name}{rule} at {where} ({finding.severity.value}): {finding.message}",
        ),
        confidence=confidence_for(category, finding.severity),
        severity=severity,
        action=action_for(category, finding.severity),
        requires_human=leak,
        origin=run.name,
        category=category.value,
        rule_id=finding.rule_id,
        fingerprint=digest,
        replacement=finding.replacement,
    )


_GUESSES = frozenset(detector_rule_id(d) for d in HEURISTIC_DETECTORS)
"""The rule ids of detect-secrets' guessing detectors (keyword and entropy)."""


def verifier_candidates(
    verification: Verification,
    diff: Diff,
    vendored: frozenset[str] = frozenset(),
    generated: frozenset[str] = frozenset(),
) -> tuple[CandidateFinding, ...]:
    """Every finding of every verifier run as a candidate finding, ids unique and stable.

    ``vendored``: files the evidence pack lists as third-party code the base branch vendors
    (not reviewed, a dependency change). A lint, type or pattern finding there is about a
    dependency's code the PR only copied (traefik's Glide bump carried libtrust's
    ``InsecureSkipVerify``), so it is no candidate, nor is a secret guessed from entropy or a
    keyword (a hex constant of a vendored Redis emulator in distribution's fix, holdout48); a
    secret of a known format (a private key, a provider's token) is, wherever it sits.

    ``generated``: files the pack lists as a generator's output (a header such as ``// Generated
    by CoffeeScript``, a ``*.pb.go`` name). A lint or type finding there is about what the
    generator wrote, fixed in its source or the generator, not by hand (xml2js's compiled
    ``lib/parser.js`` flagged for ``instanceof Array``, holdout66), so it is no candidate; a
    security pattern or a secret is, wherever it sits."""
    out: list[CandidateFinding] = []
    seen: dict[str, int] = {}
    added = AddedLines(diff)
    for run in verification.verifiers:
        for finding in run.findings:
            category = category_of(run.name)
            if finding.file in vendored and (
                category is not Category.SECRETS or finding.rule_id in _GUESSES
            ):
                continue
            if finding.file in generated and category in {Category.LINT, Category.TYPE}:
                continue
            candidate = _candidate(run, finding, added)
            count = seen.get(candidate.finding_id, 0)
            seen[candidate.finding_id] = count + 1
            if count:
                candidate = candidate.model_copy(
                    update={"finding_id": f"{candidate.finding_id}-{count + 1}"}
                )
            out.append(candidate)
    return tuple(out)
