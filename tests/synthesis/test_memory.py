"""Fingerprints survive line shifts; compare marks new, still open and resolved."""

from __future__ import annotations

from pr_review.schema.enums import Action, Confidence, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import CandidateFinding, Evidence, ReviewStatus
from pr_review.sources.diff import parse_diff
from pr_review.synthesis import SynthesisSettings, build_memory, compare, fingerprint, synthesize


def diff_with_line_at(n: int) -> str:
    return (
        "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n"
        f"@@ -{n},2 +{n},3 @@\n ctx\n+    key = 'session:'  +  sid\n ctx2\n"
    )


def finding(line: int, title: str = "Cache key from unsanitized input") -> CandidateFinding:
    return CandidateFinding(
        finding_id="f1",
        source=FindingSource.FRESH_EYES,
        title=title,
        file="app.py",
        line_start=line,
        line_end=line,
        why_it_matters="poisoning",
        evidence=Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="d"),
        confidence=Confidence.HIGH,
        severity=Severity.HIGH,
        action=Action.FIX,
        category="security",
    )


def test_fingerprint_survives_a_line_shift_and_rewording_when_code_is_cited() -> None:
    before = fingerprint(finding(11), parse_diff(diff_with_line_at(10)))
    after = fingerprint(finding(41, "Redis key uses user input"), parse_diff(diff_with_line_at(40)))
    assert before == after
    other_file = finding(11).model_copy(update={"file": "b.py"})
    assert fingerprint(other_file, None) != fingerprint(finding(11), None)


def test_without_cited_code_the_normalized_title_stands_in() -> None:
    assert fingerprint(finding(3, "Cache keys are unsanitized!"), None) == fingerprint(
        finding(90, "cache key is unsanitized"), None
    )


def test_compare_marks_new_still_open_and_resolved() -> None:
    first = synthesize([finding(11)], diff=None, verification=None, settings=SynthesisSettings())
    memory = build_memory("sha1", "cfg", first.findings)
    gone = memory.model_copy(
        update={
            "findings": (
                *memory.findings,
                memory.findings[0].model_copy(update={"fingerprint": "0" * 16, "title": "old one"}),
            )
        }
    )
    second = synthesize(
        [finding(11), finding(2, "Race on counter").model_copy(update={"finding_id": "f2"})],
        diff=None,
        verification=None,
        settings=SynthesisSettings(),
    )
    marked, diff = compare(gone, second.findings)
    status = {f.finding_id: f.review_status for f in marked}
    assert status == {"f1": ReviewStatus.STILL_OPEN, "f2": ReviewStatus.NEW}
    assert [e.title for e in diff.resolved] == ["old one"]
    assert diff.resolved[0].status is ReviewStatus.RESOLVED
    assert diff.previous_head_sha == "sha1"
    _, none_before = compare(None, second.findings)
    assert set(none_before.new) == {"f1", "f2"}
