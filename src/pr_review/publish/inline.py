"""Inline review comments on the lines of the strongest findings.

GitHub takes a review's comments all or nothing: one anchor outside the diff fails the whole
review with a 422 that does not say which. So every anchor is checked against the diff's
hunks first (RIGHT side: added or context lines of one hunk), and if GitHub still refuses the
review, each comment is posted on its own so one bad anchor loses only itself.

Each comment ends with a hidden fingerprint marker; a finding whose fingerprint already has a
comment of ours is not commented again on a re-review.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pr_review.errors import GitHubError
from pr_review.packet.neutralize import inline, paragraphs
from pr_review.schema.enums import Confidence
from pr_review.schema.finding import SynthesizedFinding
from pr_review.sources.diff import Diff
from pr_review.sources.github import GitHubApi

FINGERPRINT_MARKER = "<!-- pr-review-guardrails:finding {} -->"
META_PATTERN = re.compile(r"<!-- pr-review-guardrails:meta (\{[^<>]*\}) -->")
"""Who raised the finding (source, producer, rule, category), for ``pr-review outcomes``."""
FINGERPRINT_PATTERN = re.compile(r"<!-- pr-review-guardrails:finding ([A-Za-z0-9_.:-]+) -->")
MAX_INLINE = 10


@dataclass(frozen=True)
class Anchor:
    """Where one comment goes: ``line`` (and ``start_line`` for a range) on the RIGHT side."""

    path: str
    line: int
    start_line: int | None = None

    def payload(self, body: str) -> dict[str, Any]:
        """The REST fields of one review comment."""
        data: dict[str, Any] = {"path": self.path, "line": self.line, "side": "RIGHT", "body": body}
        if self.start_line is not None:
            data["start_line"] = self.start_line
            data["start_side"] = "RIGHT"
        return data


@dataclass(frozen=True)
class InlineResult:
    """What happened to the inline comments."""

    posted: int = 0
    already_commented: int = 0
    invalid_anchor: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())


def eligible(findings: Sequence[SynthesizedFinding]) -> tuple[SynthesizedFinding, ...]:
    """Surfaced, high-confidence findings that point at a line, best ranked first."""
    picked = [
        f
        for f in findings
        if not f.suppressed and f.merged_confidence is Confidence.HIGH and f.line_start is not None
    ]
    return tuple(picked[:MAX_INLINE])


def anchor_for(finding: SynthesizedFinding, diff: Diff) -> Anchor | None:
    """A RIGHT-side anchor inside one hunk of the finding's file, or None."""
    f = diff.file(finding.file)
    if f is None or finding.line_start is None:
        return None
    end = finding.line_end if finding.line_end is not None else finding.line_start
    start = min(finding.line_start, end)
    end = max(finding.line_start, end)
    for hunk in f.hunks:
        shown = hunk.new_range
        if end in shown:
            if start != end and start in shown:
                return Anchor(f.path, end, start)
            return Anchor(f.path, end)
        if start in shown:
            return Anchor(f.path, start)
    return None


def fingerprint_of(finding: SynthesizedFinding) -> str:
    """The finding's stable identity (its fingerprint, else its id)."""
    return re.sub(r"[^A-Za-z0-9_.:-]", "-", finding.fingerprint or finding.finding_id)


MAX_SUGGESTION_LINES = 5
SENSITIVE_CATEGORIES = frozenset(
    {"security", "permissions", "prompt-injection", "secrets", "auth", "crypto"}
)
"""Categories where a model's rewrite is never offered as a one-click change."""


def suggestion(finding: SynthesizedFinding, diff: Diff) -> str | None:
    """The finding's replacement as a GitHub suggestion block, or None where not allowed.

    Allowed only for a verifier's own safe fix of its line (``""`` deletes it) or a reviewer's
    replacement of at most :data:`MAX_SUGGESTION_LINES` lines that
    are all lines this PR added, inside one hunk, whose text is still what the reviewer saw
    (the lines did not move), outside security-sensitive categories and critical findings, and
    without a fence that would end the block.
    """
    text = finding.replacement
    if text is None or finding.line_start is None or not _allowed(finding, text):
        return None
    start = finding.line_start
    end = finding.line_end if finding.line_end is not None else start
    new_lines = text.rstrip("\n").split("\n")
    file_diff = diff.file(finding.file)
    too_long = max(end - start + 1, len(new_lines)) > MAX_SUGGESTION_LINES
    if file_diff is None or too_long:
        return None
    hunk = next((h for h in file_diff.hunks if start in h.new_range and end in h.new_range), None)
    added = dict(hunk.added) if hunk is not None else {}
    cited = [added.get(n) for n in range(start, end + 1)]
    if not cited or any(line is None for line in cited):
        return None
    # The reviewer's cited lines (``+text``) must be the lines shown now.
    moved = finding.hunk is not None and _folded(finding.hunk) != _folded("\n".join(
        line or "" for line in cited))  # fmt: skip
    if moved:
        return None
    return "```suggestion\n```" if text == "" else (
        "```suggestion\n" + "\n".join(new_lines) + "\n```")  # fmt: skip


def _allowed(finding: SynthesizedFinding, text: str) -> bool:
    """Not for security-sensitive or critical findings, nor text that would end the block."""
    sensitive = (finding.category or "").lower() in SENSITIVE_CATEGORIES
    return "```" not in text and not sensitive and finding.severity.value != "critical"


def _folded(text: str) -> str:
    """Cited code compared without whitespace and without the ``+`` reviewers' hunks carry."""
    return " ".join(" ".join(line.removeprefix("+") for line in text.splitlines()).split())


def body_for(finding: SynthesizedFinding, diff: Diff | None = None) -> str:
    """The comment text: what, why, what to do (a suggestion where allowed), and the hidden
    fingerprint."""
    lines = [
        f"**{finding.severity.value.upper()}: {inline(finding.title, 300)}**",
        "",
        paragraphs(finding.why_it_matters, 6000),
        "",
        (
            f"Action: **{finding.action.value}** · confidence {finding.merged_confidence.value}"
            f" · evidence: {finding.evidence.type.value}"
        ),
    ]
    if finding.corroborated_by:
        lines.append(f"Corroborated by: {inline(', '.join(finding.corroborated_by))}")
    block = suggestion(finding, diff) if diff is not None else None
    if block is not None:
        lines += ["", block]
    lines += ["", FINGERPRINT_MARKER.format(fingerprint_of(finding)), meta_marker(finding)]
    return "\n".join(lines)


def meta_marker(finding: SynthesizedFinding) -> str:
    """A hidden line naming the finding's source, producer, rule and category (escaped so it
    can neither close the comment early nor hold markup)."""
    meta = {"source": finding.source.value, "producer": finding.producer,
            "rule": finding.rule_id, "category": finding.category}  # fmt: skip
    raw = json.dumps(meta, separators=(",", ":"), ensure_ascii=True)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        raw = raw.replace(char, escape)
    return f"<!-- pr-review-guardrails:meta {raw} -->"


def existing_fingerprints(api: GitHubApi, number: int, identity: str | None) -> frozenset[str]:
    """Fingerprints our earlier inline comments carry."""
    found = set()
    for c in api.review_comments(number):
        login = c.user.login if c.user else ""
        if identity is not None and login != identity:
            continue
        if identity is None and not login.endswith("[bot]"):
            continue
        found.update(FINGERPRINT_PATTERN.findall(c.body))
    return frozenset(found)


def publish_inline(
    api: GitHubApi,
    number: int,
    head_sha: str,
    findings: Sequence[SynthesizedFinding],
    diff: Diff,
    *,
    identity: str | None,
) -> InlineResult:
    """Post the eligible findings' comments (validated, deduplicated, one review)."""
    candidates = eligible(findings)
    if not candidates:
        return InlineResult()
    seen = existing_fingerprints(api, number, identity)
    payloads: list[tuple[str, dict[str, Any]]] = []
    invalid: list[str] = []
    repeated = 0
    for f in candidates:
        if fingerprint_of(f) in seen:
            repeated += 1
            continue
        anchor = anchor_for(f, diff)
        if anchor is None:
            invalid.append(f"{f.file}:{f.line_start}")
            continue
        payloads.append((f"{f.file}:{anchor.line}", anchor.payload(body_for(f, diff))))
    if not payloads:
        return InlineResult(already_commented=repeated, invalid_anchor=tuple(invalid))
    body = (
        f"pr-review-guardrails: {len(payloads)} finding(s) on these lines; see the packet comment."
    )
    try:
        api.create_review(number, head_sha, body, [p for _, p in payloads])
        return InlineResult(len(payloads), repeated, tuple(invalid))
    except GitHubError as exc:
        if exc.status != 422:
            raise
    return _one_by_one(
        api, number, head_sha=head_sha, payloads=payloads, repeated=repeated, invalid=invalid
    )


def _one_by_one(
    api: GitHubApi,
    number: int,
    *,
    head_sha: str,
    payloads: list[tuple[str, dict[str, Any]]],
    repeated: int,
    invalid: list[str],
) -> InlineResult:
    """After a 422 on the whole review: each comment alone, so one bad anchor loses only itself."""
    posted = 0
    refused = []
    for where, payload in payloads:
        try:
            api.create_review_comment(number, head_sha, payload)
            posted += 1
        except GitHubError as exc:
            if exc.status != 422:
                raise
            refused.append(where)
    return InlineResult(
        posted,
        repeated,
        tuple(invalid),
        tuple(refused),
        ("GitHub refused the review as a whole (422); comments were posted one by one",),
    )
