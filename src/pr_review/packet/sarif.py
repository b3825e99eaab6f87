"""SARIF 2.1.0 of the surfaced findings, for GitHub code-scanning upload.

Levels: critical/high → ``error``, medium → ``warning``, low → ``note``. Rule ids are the
verifier's rule (``<origin>/<rule>``) or ``pr-review/<category>``. ``partialFingerprints``
carries our fingerprint, so code scanning tracks a finding across pushes. A finding with
no file has no location (SARIF allows it); it is still listed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pr_review.schema.enums import Severity
from pr_review.schema.finding import SynthesizedFinding

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
}


def rule_id(f: SynthesizedFinding) -> str:
    """The SARIF rule id of a finding."""
    if f.rule_id:
        return f"{f.producer}/{f.rule_id}"
    return f"pr-review/{(f.category or 'finding').lower()}"


def to_sarif(findings: Sequence[SynthesizedFinding], *, tool_version: str) -> dict[str, Any]:
    """A SARIF log (one run) of the surfaced findings, in rank order."""
    shown = sorted(
        (f for f in findings if not f.suppressed or f.minor),
        key=lambda f: (f.rank or 10**9, f.finding_id),
    )
    rules: dict[str, int] = {}
    for f in shown:
        rules.setdefault(rule_id(f), len(rules))
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pr-review-guardrails",
                        "version": tool_version,
                        "informationUri": "https://github.com/",
                        "rules": [{"id": r, "shortDescription": {"text": r}} for r in rules],
                    }
                },
                "results": [_result(f, rules) for f in shown],
            }
        ],
    }


def _result(f: SynthesizedFinding, rules: dict[str, int]) -> dict[str, Any]:
    rid = rule_id(f)
    result: dict[str, Any] = {
        "ruleId": rid,
        "ruleIndex": rules[rid],
        "level": _LEVEL[f.severity],
        "message": {"text": f"{f.title}\n\n{f.why_it_matters}\n\nEvidence: {f.evidence.detail}"},
        "partialFingerprints": {"prReviewFingerprint/v1": f.fingerprint or f.finding_id},
        "properties": {
            "rank": f.rank,
            "score": f.rank_score,
            "action": f.action.value,
            "corroboratedBy": list(f.corroborated_by),
            "contestedBy": list(f.contested_by),
        },
    }
    if f.file:
        location: dict[str, Any] = {"artifactLocation": {"uri": f.file}}
        if f.line_start is not None and f.line_start >= 1:
            end = f.line_end if f.line_end and f.line_end >= f.line_start else f.line_start
            location["region"] = {"startLine": f.line_start, "endLine": end}
        result["locations"] = [{"physicalLocation": location}]
    return result


def render_sarif(findings: Sequence[SynthesizedFinding], *, tool_version: str) -> str:
    """The SARIF log as JSON text."""
    return json.dumps(to_sarif(findings, tool_version=tool_version), indent=2) + "\n"
