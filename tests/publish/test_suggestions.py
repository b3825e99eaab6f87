"""Suggested changes: a reviewer's replacement of at most 5 lines the PR added, shown as a
GitHub suggestion block only where allowed."""

from __future__ import annotations

from typing import Any

import pytest

from pr_review.publish.inline import body_for, suggestion
from pr_review.schema.enums import Action, Confidence, EvidenceType, FindingSource, Severity
from pr_review.schema.finding import Evidence, SynthesizedFinding
from pr_review.sources.diff import Diff, FileDiff, FileStatus, Hunk

ADDED = ["def total(items):", "    return sum(items) + 1", "", "def count(items):", "    return 0"]


def _diff() -> Diff:
    hunk = Hunk(old_start=0, old_length=0, new_start=10, new_length=len(ADDED), section="",
                added=tuple((10 + i, t) for i, t in enumerate(ADDED)), removed=())  # fmt: skip
    file = FileDiff(path="app/calc.py", status=FileStatus.MODIFIED, hunks=(hunk,),
                    insertions=len(ADDED))  # fmt: skip
    return Diff(files=(file,), raw="")


def _finding(**kwargs: Any) -> SynthesizedFinding:
    fields: dict[str, Any] = {
        "finding_id": "fresh_eyes-1", "source": FindingSource.FRESH_EYES,
        "title": "Off by one in total", "file": "app/calc.py", "line_start": 11, "line_end": 11,
        "hunk": "+    return sum(items) + 1", "why_it_matters": "Every total is one too high.",
        "evidence": Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="sum(items) + 1"),
        "confidence": Confidence.HIGH, "merged_confidence": Confidence.HIGH,
        "severity": Severity.HIGH, "action": Action.FIX,
        "category": "correctness", "replacement": "    return sum(items)",
    }  # fmt: skip
    fields.update(kwargs)
    return SynthesizedFinding(**fields)


def test_a_mechanical_fix_on_added_lines_is_a_suggestion() -> None:
    block = suggestion(_finding(), _diff())
    assert block == "```suggestion\n    return sum(items)\n```"
    assert block in body_for(_finding(), _diff())


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"category": "security"}, "security-sensitive code a model rewrote"),
        ({"category": "permissions"}, "access control"),
        ({"severity": Severity.CRITICAL}, "critical"),
        ({"replacement": "a\nb\nc\nd\ne\nf"}, "more than 5 lines"),
        ({"line_start": 10, "line_end": 15}, "a range longer than 5 lines or past the hunk"),
        ({"line_start": 30, "line_end": 30, "hunk": None}, "outside the diff"),
        ({"hunk": "+    return sum(items) + 2"}, "the lines changed since the review"),
        ({"replacement": "```\nrm -rf /\n```"}, "a fence that ends the block"),
        ({"replacement": None}, "no replacement"),
    ],
)
def test_no_suggestion_where_not_allowed(change: dict[str, Any], why: str) -> None:
    assert suggestion(_finding(**change), _diff()) is None, why
