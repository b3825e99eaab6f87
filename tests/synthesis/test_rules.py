"""Suppression, contest, verifier precedence, tie-break, legacy adapter, concepts."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from pr_review.reviewers.interface import ModelRequest, ModelResult, ModelUnavailable
from pr_review.schema.enums import (
    Action,
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Severity,
    VerifierStatus,
)
from pr_review.schema.finding import CandidateFinding, Evidence
from pr_review.schema.pack import Verification, VerifierRun
from pr_review.schema.run import ModelCall
from pr_review.sources.diff import parse_diff
from pr_review.synthesis import SynthesisSettings, synthesize
from pr_review.synthesis.legacy import from_legacy
from pr_review.synthesis.text import CONCEPTS, concepts

T = TypeVar("T", bound=BaseModel)

DIFF = parse_diff(
    "diff --git a/app.py b/app.py\n"
    "index 1111111..2222222 100644\n"
    "--- a/app.py\n"
    "+++ b/app.py\n"
    "@@ -10,3 +10,4 @@ def f():\n"
    "     a = 1\n"
    "+    key = 'session:' + request.args['id']\n"
    "     b = 2\n"
    "     c = 3\n"
    "diff --git a/new.py b/new.py\n"
    "new file mode 100644\n"
    "index 0000000..3333333\n"
    "--- /dev/null\n"
    "+++ b/new.py\n"
    "@@ -0,0 +1,2 @@\n"
    "+x = 1\n"
    "+y = 2\n"
)


def cand(fid: str, **kw: Any) -> CandidateFinding:
    base: dict[str, Any] = {
        "finding_id": fid,
        "source": FindingSource.FRESH_EYES,
        "title": "Cache key built from unsanitized request input",
        "file": "app.py",
        "line_start": 11,
        "line_end": 11,
        "why_it_matters": "An attacker can poison other users' cache entries.",
        "evidence": Evidence(type=EvidenceType.HUNK_LEVEL_CODE, detail="line 11 concatenates"),
        "confidence": Confidence.HIGH,
        "severity": Severity.HIGH,
        "action": Action.FIX,
    }
    base.update(kw)
    return CandidateFinding(**base)


def run(*findings: CandidateFinding, **kw: Any):  # type: ignore[no-untyped-def]
    settings = kw.pop("settings", SynthesisSettings())
    return synthesize(
        findings,
        diff=kw.pop("diff", DIFF),
        verification=kw.pop("verification", None),
        settings=settings,
        **kw,
    )


def reason(result: Any, fid: str) -> str | None:
    return next(f.suppression_reason for f in result.findings if f.finding_id == fid)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"file": "other.py"}, "does not change"),
        ({"line_start": 40, "line_end": 41}, "outside the changed lines"),
        ({"line_start": 5, "line_end": 2}, "do not exist"),
        ({"file": "new.py", "line_start": 9, "line_end": 9}, "new file has 2 lines"),
        ({"severity": Severity.LOW}, "below the configured minimum"),
        (
            {
                "evidence": Evidence(type=EvidenceType.CONTEXTUAL_REASONING, detail="maybe"),
                "confidence": Confidence.LOW,
            },
            "low-confidence contextual",
        ),
        ({"title": "Variable name is not descriptive", "why_it_matters": "readability"}, "style"),
    ],
)
def test_each_suppression_rule_gives_its_reason(fields: dict[str, Any], expected: str) -> None:
    settings = SynthesisSettings(min_severity=Severity.MEDIUM)
    result = run(cand("x", **fields), settings=settings)
    got = reason(result, "x")
    assert got is not None
    assert expected in got


def test_a_finding_on_changed_lines_surfaces() -> None:
    assert reason(run(cand("x")), "x") is None


def test_without_a_diff_location_rules_cannot_judge() -> None:
    result = run(cand("x", file="", line_start=None, line_end=None), diff=None)
    assert reason(result, "x") is None


def test_style_reason_names_the_linter_that_passed() -> None:
    verification = Verification(
        verifiers=(VerifierRun(name="ruff", status=VerifierStatus.PASS, files_checked=("app.py",)),)
    )
    result = run(
        cand("x", title="Trailing whitespace and naming", why_it_matters="tidy"),
        verification=verification,
    )
    assert reason(result, "x") == "style-only finding; the linter ruff checked this file and passed"


def test_a_verifier_hit_on_the_same_lines_corroborates_the_reviewers_finding() -> None:
    tool = cand(
        "v1",
        source=FindingSource.VERIFIER,
        origin="bandit",
        rule_id="B608",
        title="SQL built by string formatting in `app.py`",
        why_it_matters="A query assembled from strings is open to SQL injection.",
        severity=Severity.MEDIUM,
        evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail="B608 line 11"),
    )
    reviewer = cand(
        "r1",
        title="sort_dir reaches ORDER BY unvalidated",
        why_it_matters="An attacker appends SQL through the sort direction (SQL injection).",
    )
    result = run(tool, reviewer)
    head = next(f for f in result.surfaced if f.finding_id == "r1")
    assert head.title == reviewer.title
    assert head.why_it_matters == reviewer.why_it_matters
    assert "bandit:B608" in head.corroborated_by
    assert head.evidence == reviewer.evidence
    assert (reason(result, "v1") or "").startswith("corroborates r1")


@pytest.mark.parametrize(
    ("tool", "rule", "tool_title", "reviewer_title"),
    [
        ("bandit", "B608", "Possible SQL injection vector through string-based query construction",
         "User input reaches a SQL query unescaped"),
        ("sinks", "js-shell-untrusted", "Request input reaches a shell command (child_process)",
         "Command injection through the uploaded file name"),
        ("sinks", "go-path-untrusted", "Request input used as a file path",
         "Path traversal: the name parameter can contain ../"),
        ("oxlint", "eslint/no-eval", "eval can be harmful.",
         "Remote code execution: the expression from the query string is passed to eval"),
        ("sinks", "go-tls-insecure", "TLS certificate verification turned off",
         "InsecureSkipVerify lets anyone intercept the webhook calls"),
    ],
)  # fmt: skip
def test_a_tool_hit_and_a_reviewer_finding_on_one_concern_are_one_finding(
    tool: str, rule: str, tool_title: str, reviewer_title: str
) -> None:
    """The issue's pair: a reviewer's "User input reaches a SQL query unescaped" and bandit's
    B608 on the same line are one finding with the tool as corroboration (and the same for
    the sink rules' and oxlint's concerns)."""
    hit = cand(
        "v1", source=FindingSource.VERIFIER, origin=tool, rule_id=rule, title=tool_title,
        why_it_matters="", severity=Severity.HIGH,
        evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail=f"{rule} line 11"),
    )  # fmt: skip
    reviewer = cand("r1", title=reviewer_title, why_it_matters="")
    result = run(hit, reviewer)
    assert [f.finding_id for f in result.surfaced] == ["r1"]
    assert f"{tool}:{rule}" in result.surfaced[0].corroborated_by


def test_a_verifier_hit_elsewhere_in_the_file_does_not_absorb_the_reviewers_finding() -> None:
    tool = cand(
        "v1",
        source=FindingSource.VERIFIER,
        origin="bandit",
        rule_id="B608",
        title="SQL built by string formatting in `app.py`",
        why_it_matters="A query assembled from strings is open to SQL injection.",
        line_start=40,
        line_end=44,
        severity=Severity.MEDIUM,
        confidence=Confidence.MEDIUM,
        evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail="B608 line 40"),
    )
    reviewer = cand("r1", title="SQL injection through sort_dir", line_start=11, line_end=12)
    result = run(tool, reviewer, diff=None)
    assert reason(result, "r1") is None
    head = next(f for f in result.surfaced if f.finding_id == "r1")
    assert head.corroborated_by == ()
    assert "Other checks" in (reason(result, "v1") or "")


def test_the_same_rule_at_two_distant_places_is_two_findings() -> None:
    def hit(fid: str, line: int) -> CandidateFinding:
        return cand(
            fid,
            source=FindingSource.VERIFIER,
            origin="ruff",
            rule_id="F821",
            title="Undefined name in `app.py`",
            line_start=line,
            line_end=line,
            evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail="F821"),
        )

    result = run(hit("v1", 10), hit("v2", 90), diff=None)
    assert {f.finding_id for f in result.surfaced} == {"v1", "v2"}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"severity": Severity.LOW}, "low-severity note"),
        (
            {
                "confidence": Confidence.MEDIUM,
                "evidence": Evidence(type=EvidenceType.CONTEXTUAL_REASONING, detail="probably"),
            },
            "contextual reasoning only",
        ),
        (
            {
                "source": FindingSource.VERIFIER,
                "origin": "bandit",
                "rule_id": "B608",
                "severity": Severity.MEDIUM,
                "confidence": Confidence.MEDIUM,
            },
            "listed under Other checks",
        ),
    ],
)
def test_findings_below_the_bar_are_minor_and_listed(fields: dict[str, Any], expected: str) -> None:
    result = run(cand("x", **fields))
    got = next(f for f in result.findings if f.finding_id == "x")
    assert got.suppressed
    assert got.minor
    assert expected in (got.suppression_reason or "")


@pytest.mark.parametrize(
    "fields",
    [
        {},  # high severity with cited code
        {"severity": Severity.CRITICAL, "evidence": Evidence(
            type=EvidenceType.CONTEXTUAL_REASONING, detail="reasoning")},
        {"source": FindingSource.VERIFIER, "origin": "secrets", "rule_id": "aws_access_key_id",
         "severity": Severity.CRITICAL},
        {"source": FindingSource.VERIFIER, "origin": "ruff", "rule_id": "F821",
         "severity": Severity.MEDIUM, "confidence": Confidence.HIGH},
    ],
)  # fmt: skip
def test_findings_that_clear_the_bar_are_ranked(fields: dict[str, Any]) -> None:
    result = run(cand("x", **fields))
    assert reason(result, "x") is None


def test_disagreeing_actions_from_different_origins_contest_the_finding() -> None:
    result = run(
        cand("a", origin="fresh_eyes"), cand("b", origin="challenger", action=Action.DISCUSS)
    )
    head = result.surfaced[0]
    assert head.contested_by == ("challenger",)
    assert head.action is Action.DISCUSS
    assert head.requires_human


def test_a_lone_refutation_is_suppressed() -> None:
    result = run(cand("c", source=FindingSource.CHALLENGER, classification=Classification.REFUTES))
    assert "nothing to contest" in (reason(result, "c") or "")


def test_min_origins_suppresses_uncorroborated_findings_but_not_verifier_output() -> None:
    settings = SynthesisSettings(min_origins=2)
    tool = cand(
        "v",
        source=FindingSource.VERIFIER,
        origin="ruff",
        title="E501 too long",
        rule_id="E501",
        why_it_matters="x",
        line_start=12,
        line_end=12,
    )
    result = run(cand("a"), tool, settings=settings)
    assert "1 independent origin(s); 2 required" in (reason(result, "a") or "")
    assert reason(result, "v") is None


class FakeModel:
    """Answers every pair with ``same``; records requests; optionally fails."""

    def __init__(self, *, same: bool = True, fail: bool = False) -> None:
        self.same, self.fail = same, fail
        self.requests: list[ModelRequest] = []

    def complete(self, request: ModelRequest, output: type[T]) -> ModelResult[T]:
        self.requests.append(request)
        call = ModelCall(reviewer=request.purpose, model=request.model)
        if self.fail:
            raise ModelUnavailable("down", calls=(call,))
        n = request.prompt.count('"pair":')
        value = output.model_validate(
            {"answers": [{"pair": i, "same_issue": self.same} for i in range(n)]}
        )
        return ModelResult(value, (call,))


AMBIGUOUS = (
    cand("p", title="Retry loop never backs off", why_it_matters="hammers the API"),
    cand("q", title="Retry loop lacks jitter so clients sync", why_it_matters="thundering herd"),
)


def test_ambiguous_pairs_stay_apart_without_a_model_and_merge_when_the_model_says_so() -> None:
    settings = SynthesisSettings(near_merge=0.9, ambiguous_band=0.9)
    assert len(run(*AMBIGUOUS, settings=settings).surfaced) == 2
    model = FakeModel()
    result = run(*AMBIGUOUS, settings=settings, model=model)
    assert len(model.requests) == 1
    assert len(result.surfaced) == 1
    assert result.model_calls
    assert any(p.by_model for c in result.clusters for p in c.pairs)


def test_a_failed_tie_break_is_reported_not_raised() -> None:
    settings = SynthesisSettings(near_merge=0.9, ambiguous_band=0.9)
    result = run(*AMBIGUOUS, settings=settings, model=FakeModel(fail=True))
    assert len(result.surfaced) == 2
    assert any("tie-break failed" in n for n in result.notes)


def test_legacy_adapter_maps_scales_and_keeps_the_verifier_name() -> None:
    f = from_legacy(
        {
            "finding_id": "v",
            "source": "verifier",
            "verifier_name": "bandit",
            "file": "a.py",
            "line_start": 1,
            "line_end": 1,
            "issue": "B104",
            "severity": 1,
            "confidence": 2,
            "evidence": "hit",
            "verification_support": 3,
        }
    )
    assert (f.severity, f.confidence, f.evidence.type) == (
        Severity.LOW,
        Confidence.MEDIUM,
        EvidenceType.VERIFIER_OUTPUT,
    )
    assert f.producer == "bandit"


@pytest.mark.parametrize("concept", CONCEPTS, ids=lambda c: c.term)
def test_concepts_match_their_examples_and_not_their_counter_examples(concept: Any) -> None:
    for text in concept.examples:
        assert concept.term in concepts(text), text
    for text in concept.counter_examples:
        assert concept.term not in concepts(text), text


def test_one_root_cause_at_several_places_is_one_finding_with_its_locations() -> None:
    text = "Cache key built from unsanitized session_id lets users overwrite entries"
    a = cand("a", title=text, file="app.py", line_start=11, line_end=11)
    b = cand("b", title=text, file="app.py", line_start=60, line_end=62, origin="challenger")
    result = run(a, b, diff=None)
    (head,) = result.surfaced
    others = {"a": "app.py:60-62", "b": "app.py:11"}
    assert head.locations == (others[head.finding_id],)
    assert len(head.merged_ids) == 1


def _lint(fid: str, origin: str, rule: str, title: str, why: str) -> CandidateFinding:
    return cand(
        fid,
        source=FindingSource.VERIFIER,
        origin=origin,
        rule_id=rule,
        title=title,
        why_it_matters=why,
        severity=Severity.LOW,
        line_start=11,
        line_end=11,
        evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail=f"{origin} {rule}"),
    )


TRY_EXCEPT_PASS = (
    _lint("v1", "ruff", "BLE001", "Broad exception handling in `app.py`",
          "A blind except catches every exception: it hides bugs."),
    _lint("v2", "bandit", "B110", "Exception silently ignored in `app.py`",
          "`except: pass` hides failures."),
    _lint("v3", "ruff", "S110", "Broad exception handling in `app.py`",
          "A blind except catches every exception: it hides bugs."),
)  # fmt: skip


def test_three_tools_on_one_try_except_pass_and_the_reviewer_are_one_finding() -> None:
    reviewer = cand(
        "r1",
        title="Payment errors are swallowed by try/except/pass",
        why_it_matters="A failed capture is silently ignored and the order is marked paid.",
        line_start=10,
        line_end=12,
    )
    result = run(*TRY_EXCEPT_PASS, reviewer, diff=None)
    (head,) = result.surfaced
    assert head.finding_id == "r1"
    assert {"ruff:BLE001", "bandit:B110", "ruff:S110"} <= set(head.corroborated_by)
    assert set(head.merged_ids) == {"v1", "v2", "v3"}


def test_three_tools_on_one_try_except_pass_alone_are_one_other_check() -> None:
    result = run(*TRY_EXCEPT_PASS, diff=None)
    assert not result.surfaced
    minor = [f for f in result.findings if f.minor]
    assert len(minor) == 1
    assert "Other checks" in (minor[0].suppression_reason or "")


def test_list_minor_false_ranks_findings_below_the_bar() -> None:
    low = cand("x", severity=Severity.LOW)
    assert reason(run(low), "x") is not None
    assert reason(run(low, settings=SynthesisSettings(list_minor=False)), "x") is None
