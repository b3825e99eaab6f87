"""What a review detected, read from its pack and findings: the flags and approval language.

Detection reads the pack's structured sections (oversize, blockers, factors, missing artifacts,
authorship, verifier runs, hotspots), never the case id: the same rules face held-out cases.
Each detector returns ``(detected, evidence)`` so a metric or grade can say why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pr_review.evaluation.results import Flag
from pr_review.schema.enums import FactorSeverity, VerifierSeverity
from pr_review.schema.finding import SynthesizedFinding
from pr_review.schema.pack import EvidencePack

_SIZE = re.compile(r"oversiz|too[ _-]?large|very[ _-]?large|\bsize\b|large[ _-]?diff|split", re.I)
_DESCRIPTION = re.compile(r"description|intent|\bsummary\b|\bpr[ _-]?body\b", re.I)
_SECRET = re.compile(r"secret|credential|api[ _-]?key|private[ _-]?key|token|password", re.I)


def detect(flag: Flag, pack: EvidencePack, findings: Sequence[SynthesizedFinding]) -> tuple[
    bool, str
]:
    """Whether the review flagged ``flag``, and the evidence (or what was looked at)."""
    match flag:
        case Flag.OVERSIZED:
            return _oversized(pack)
        case Flag.MISSING_DESCRIPTION:
            return _missing_description(pack)
        case Flag.AI_ASSISTED:
            return _ai_assisted(pack)
        case Flag.SECRETS:
            return _secrets(pack, findings)


def _oversized(pack: EvidencePack) -> tuple[bool, str]:
    size = pack.diff.oversize
    if size.oversized:
        tokens = f"~{size.estimated_tokens} tokens > {size.threshold_tokens}"
        return True, f"pack.diff.oversize: {tokens}"
    for blocker in pack.blockers:
        if _SIZE.search(blocker.kind) or _SIZE.search(blocker.message):
            return True, f"blocker {blocker.kind}: {blocker.message}"
    for factor in pack.risk.factors:
        # A moderate "large diff" factor is a size note; only a red one says "too big to review".
        if factor.severity is FactorSeverity.RED and _SIZE.search(factor.factor):
            return True, f"red risk factor {factor.factor}: {factor.why}".rstrip(": ")
    stats = pack.diff.stats
    return False, (
        f"no oversize flag, size blocker or red size factor "
        f"({stats.files_changed} files, +{stats.insertions}/-{stats.deletions})"
    )


def _missing_description(pack: EvidencePack) -> tuple[bool, str]:
    for artifact in pack.missing_artifacts:
        if _DESCRIPTION.search(artifact.artifact):
            return True, f"missing artifact {artifact.artifact}: {artifact.why_required}"
    for factor in pack.risk.factors:
        if _DESCRIPTION.search(factor.factor):
            return True, f"risk factor {factor.factor}"
    return False, "no missing-description artifact or factor in the pack"


def _ai_assisted(pack: EvidencePack) -> tuple[bool, str]:
    authorship = pack.authorship
    if authorship.ai_assisted:
        tools = ", ".join(authorship.ai_tools) or "unnamed tool"
        return True, f"authorship.ai_assisted (tools: {tools}; ratio {authorship.ai_commit_ratio})"
    return False, f"authorship.ai_assisted false over {authorship.total_commits} commit(s)"


def _secrets(pack: EvidencePack, findings: Sequence[SynthesizedFinding]) -> tuple[bool, str]:
    for run in pack.verification.verifiers:
        # A guess on a placeholder, test fixture or docs example is information (severity
        # info), not a secret: it does not count.
        hits = [f for f in run.findings if f.severity is not VerifierSeverity.INFO]
        if _SECRET.search(run.name) and hits:
            first = hits[0]
            return True, f"verifier {run.name}: {first.file}:{first.line} {first.message}"
    for factor in pack.risk.factors:
        if _SECRET.search(factor.factor):
            return True, f"risk factor {factor.factor} on {', '.join(factor.files)}"
    for hotspot in pack.hotspots:
        if _SECRET.search(hotspot.category):
            return True, f"hotspot {hotspot.category} at {hotspot.file}:{hotspot.line_start}"
    for finding in findings:
        if not finding.suppressed and _SECRET.search(finding.category or ""):
            return True, f"finding {finding.title} at {finding.file}:{finding.line_start}"
    return False, "no secrets verifier finding, secrets factor, hotspot or finding"


@dataclass(frozen=True)
class PhraseRule:
    """A phrase that reads as approving the PR, with examples that must (not) match."""

    name: str
    pattern: re.Pattern[str]
    matches: tuple[str, ...]
    ignores: tuple[str, ...]


APPROVAL_RULES: tuple[PhraseRule, ...] = (
    PhraseRule(
        "lgtm",
        re.compile(r"\bLGTM\b", re.I),
        ("LGTM!", "lgtm, ship"),
        ("algtmx", "GTM strategy"),
    ),
    PhraseRule(
        "good-to-merge",
        re.compile(r"(?<!not )(?<!n't )\b(?:safe|ready|good|fine|ok|okay) to merge\b", re.I),
        ("This is safe to merge.", "Ready to merge"),
        ("This is not safe to merge.", "It isn't ready to merge", "merge conflicts"),
    ),
    PhraseRule(
        "looks-good",
        re.compile(r"\blooks good to (?:me|merge)\b", re.I),
        ("Looks good to me", "looks good to merge"),
        ("looks good overall but", "looks goods"),
    ),
    PhraseRule(
        "approve",
        re.compile(r"\b(?:I|we) approve\b|\bapproved (?:for|to) merge\b|\bthis PR is approved\b",
                   re.I),
        ("I approve this change", "Approved for merge.", "This PR is approved"),
        ("This is a review aid, not an approval.", "It never approves.", "needs approval"),
    ),
    PhraseRule(
        "ship-it",
        re.compile(r"\bship it\b", re.I),
        ("Ship it!",),
        ("shipping items", "relationship it"),
    ),
)


def approval_phrases(text: str) -> tuple[str, ...]:
    """Names of the approval rules the text matches (empty = no approval language)."""
    return tuple(rule.name for rule in APPROVAL_RULES if rule.pattern.search(text))
