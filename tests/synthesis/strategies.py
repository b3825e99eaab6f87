"""Hypothesis strategies for candidate findings."""

from __future__ import annotations

from hypothesis import strategies as st

from pr_review.schema.enums import (
    Action,
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
)
from pr_review.schema.finding import CandidateFinding, Evidence

WORDS = [
    "cache",
    "key",
    "redis",
    "user",
    "input",
    "stack",
    "trace",
    "null",
    "race",
    "ttl",
    "token",
    "lock",
    "naming",
    "typo",
    "query",
    "sql",
    "loop",
    "error",
    "leak",
    "retry",
]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)


@st.composite
def candidates(draw: st.DrawFn) -> CandidateFinding:
    """One arbitrary candidate, location optional."""
    start = draw(st.one_of(st.none(), st.integers(-2, 60)))
    return CandidateFinding(
        finding_id=draw(st.text("abcdef0123", min_size=1, max_size=4)),
        source=draw(st.sampled_from(FindingSource)),
        origin=draw(st.sampled_from(["", "ruff", "bandit", "fresh_eyes", "tool-x"])),
        title=draw(text),
        file=draw(st.sampled_from(["", "a.py", "b.py"])),
        line_start=start,
        line_end=None if start is None else start + draw(st.integers(-1, 5)),
        why_it_matters=draw(text),
        evidence=Evidence(type=draw(st.sampled_from(EvidenceType)), detail=draw(text)),
        confidence=draw(st.sampled_from(Confidence)),
        severity=draw(st.sampled_from(Severity)),
        action=draw(st.sampled_from(Action)),
        classification=draw(st.one_of(st.none(), st.sampled_from(Classification))),
        rule_id=draw(st.one_of(st.none(), st.sampled_from(["E1", "B104"]))),
        category=draw(st.one_of(st.none(), st.sampled_from(["style", "security"]))),
    )
