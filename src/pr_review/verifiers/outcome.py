"""Turning a verifier's outcome into the pack's ``VerifierRun``: scope, then status."""

from __future__ import annotations

import re
from dataclasses import replace

from pr_review.schema.enums import VerifierSeverity, VerifierStatus
from pr_review.schema.pack import VerifierFinding, VerifierRun
from pr_review.sources.built import counts_as_bundle
from pr_review.sources.diff_model import FileStatus
from pr_review.sources.paths import in_docs_tree
from pr_review.verifiers.candidates import category_of
from pr_review.verifiers.model import (
    Category,
    Checked,
    Context,
    Outcome,
    RawFinding,
    Skipped,
    TimedOut,
)
from pr_review.verifiers.scope import base_path, scope_findings
from pr_review.verifiers.stage import Materialized


def status_of(findings: tuple[RawFinding, ...], *, failed: bool) -> VerifierStatus:
    """fail on any error, warn when the worst is a warning, else pass (or fail if told)."""
    severities = {f.severity for f in findings}
    if VerifierSeverity.ERROR in severities or failed:
        return VerifierStatus.FAIL
    if VerifierSeverity.WARNING in severities:
        return VerifierStatus.WARN
    return VerifierStatus.PASS


FLOOD_MIN = 20
"""A rule with more hits than this in one run is a flood: one finding with the count."""

FLOOD_PLACES = 10
"""How many of a flood's places its message names (the first, in path and line order)."""


def _pack_finding(f: RawFinding) -> VerifierFinding:
    return VerifierFinding(
        file=f.path,
        line=f.line,
        message=f.message,
        severity=f.severity,
        rule_id=f.rule_id,
        end_line=f.end_line if f.end_line is not None and f.end_line != f.line else None,
        replacement=f.replacement,
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
    head, in_docs = _outside_docs(name, outcome.head)
    head, in_bundles = _outside_bundles(name, head, ctx, staged)
    head, waived = _waived_for_biome(name, head, staged)
    scoped = scope_findings(head, outcome.base, ctx.scope, staged.head_lines, staged.base_lines)
    kept = tuple(sorted(scoped.kept, key=lambda f: (f.path, f.line or 0, f.rule_id or "")))
    failed = outcome.failed_without_findings is not None
    notes = [n for n in (outcome.note, outcome.failed_without_findings) if n]
    if in_docs:
        notes.append(
            f"{in_docs} finding(s) in documentation's example code were left out (lint and "
            "types of illustrations: partial snippets, old syntax, tutorial models)"
        )
    if in_bundles:
        notes.append(
            f"{in_bundles} finding(s) in build output were left out (files ending with their "
            "source map's comment: the bundler wrote them from a source the tools read)"
        )
    if waived:
        notes.append(
            f"{waived} finding(s) were left out where the author waived the same rule for "
            "Biome on that line (`// biome-ignore lint/<group>/<rule>: <reason>`)"
        )
    if scoped.dropped:
        notes.append(
            f"{scoped.dropped} finding(s) on lines this pull request did not change, "
            "or already present in the base, were left out"
        )
    findings, floods = collapse_floods(kept)
    notes.extend(floods)
    return VerifierRun(
        name=name,
        status=status_of(kept, failed=failed),
        findings=findings,
        duration_ms=duration_ms,
        reason="; ".join(notes) or None,
        files_checked=outcome.files_checked,
    )


def collapse_floods(
    kept: tuple[RawFinding, ...],
) -> tuple[tuple[VerifierFinding, ...], list[str]]:
    """The pack's findings, each rule with more than :data:`FLOOD_MIN` hits as one finding.

    The flood's finding sits at its first place (path, then line order), carries the worst
    severity of its hits and ``count``; its message names the rule, the count, the files and
    the first :data:`FLOOD_PLACES` places. Nothing is dropped silently: the run's reason says
    which rules were collapsed and how many hits each had. Linear in the hits.
    """
    by_rule: dict[str | None, list[RawFinding]] = {}
    for f in kept:
        by_rule.setdefault(f.rule_id, []).append(f)
    flooded = {rule for rule, hits in by_rule.items() if len(hits) > FLOOD_MIN}
    out: list[VerifierFinding] = []
    notes: list[str] = []
    for f in kept:
        if f.rule_id not in flooded:
            out.append(_pack_finding(f))
            continue
        hits = by_rule[f.rule_id]
        if f is not hits[0]:
            continue
        files = len({h.path for h in hits})
        places = ", ".join(f"{h.path}:{h.line}" if h.line else h.path
                           for h in hits[:FLOOD_PLACES])  # fmt: skip
        rest = len(hits) - FLOOD_PLACES
        more = f" and {rest} more" if rest > 0 else ""
        worst = max(hits, key=lambda h: _SEVERITY_ORDER[h.severity]).severity
        message = (f"{len(hits)} hits of {f.rule_id or 'one rule'} in {files} file(s): "
                   f"{places}{more}. First: {f.message}")  # fmt: skip
        out.append(_pack_finding(replace(f, message=message, severity=worst)).model_copy(
            update={"count": len(hits)}
        ))  # fmt: skip
        notes.append(f"{f.rule_id or 'a rule'} hit {len(hits)} times in {files} file(s): "
                     "reported as one finding with the count")  # fmt: skip
    return tuple(out), notes


_SEVERITY_ORDER = {
    VerifierSeverity.INFO: 0,
    VerifierSeverity.WARNING: 1,
    VerifierSeverity.ERROR: 2,
}


_BIOME_IGNORE = re.compile(r"biome-ignore\s+lint/\w+/(\w+)")
"""Biome's suppression comment (``// biome-ignore lint/suspicious/noDebugger: <reason>``),
which waives a rule on the next line; Biome names its rules as ESLint's in camel case
(``noGlobalAssign`` is ``no-global-assign``)."""


def _kebab(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()


def _waived_for_biome(
    name: str, head: tuple[RawFinding, ...], staged: Materialized
) -> tuple[tuple[RawFinding, ...], int]:
    """A lint tool's findings without those the author waived for Biome on the line before
    or on the line itself, for the same rule by name (node-mysql2, held out on holdout34: a
    ``debugger`` statement in a row-parsing debug tool and a test replacing the global
    ``Date``, each under ``biome-ignore`` with its reason). oxlint honours ESLint's and its own
    directives, not Biome's; a waiver for another rule waives nothing."""
    if category_of(name) is not Category.LINT or not head:
        return head, 0
    kept: list[RawFinding] = []
    for f in head:
        lines = staged.head_lines.get(f.path, ())
        rule = (f.rule_id or "").rpartition("/")[2]
        near = lines[max(f.line - 2, 0) : f.line] if f.line else ()
        waived = {_kebab(m[1]) for text in near for m in _BIOME_IGNORE.finditer(text)}
        if rule and rule in waived:
            continue
        kept.append(f)
    return tuple(kept), len(head) - len(kept)


def _outside_docs(name: str, head: tuple[RawFinding, ...]) -> tuple[tuple[RawFinding, ...], int]:
    """A lint or type tool's findings without those in documentation (``docs/``, ``examples/``:
    pyramid's tutorial models, webob's Python 2 examples), and how many were left out. Security
    tools and secrets keep theirs: examples are copied into real code."""
    if category_of(name) not in (Category.LINT, Category.TYPE):
        return head, 0
    kept = tuple(f for f in head if not in_docs_tree(f.path))
    return kept, len(head) - len(kept)


def _outside_bundles(
    name: str, head: tuple[RawFinding, ...], ctx: Context, staged: Materialized
) -> tuple[tuple[RawFinding, ...], int]:
    """A lint or type tool's findings without those in build output committed beside its
    source (:mod:`pr_review.sources.built`: DOMPurify's ``dist/purify.js``, rebuilt from the
    ``src/purify.ts`` the same tools read). Security tools and secrets keep theirs."""
    if category_of(name) not in (Category.LINT, Category.TYPE) or not head:
        return head, 0
    bundles: set[str] = set()
    for f in ctx.pr.diff.files:
        if f.status is FileStatus.DELETED:
            continue
        where = base_path(f)
        base = staged.base_lines.get(where) if where is not None else None
        added = f.status is FileStatus.ADDED
        if counts_as_bundle(staged.head_lines.get(f.path), base, added=added):
            bundles.add(f.path)
    kept = tuple(f for f in head if f.path not in bundles)
    return kept, len(head) - len(kept)
