"""Verifier findings as candidate findings; tool output parsers on malformed and odd input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pr_review.schema.enums import (
    Action,
    EvidenceType,
    FindingSource,
    Severity,
    VerifierSeverity,
    VerifierStatus,
)
from pr_review.schema.pack import Verification, VerifierFinding, VerifierRun
from pr_review.sources.diff import Diff, FileDiff, FileStatus, Hunk
from pr_review.verifiers import verifier_candidates
from pr_review.verifiers.parsers import (
    OutputError,
    parse_bandit,
    parse_generic,
    parse_mypy,
    parse_ruff,
    parse_sarif,
)


def diff_adding(path: str, lines: dict[int, str]) -> Diff:
    hunk = Hunk(1, 0, min(lines), len(lines), "", tuple(sorted(lines.items())), ())
    return Diff((FileDiff(path, FileStatus.MODIFIED, (hunk,)),), "")


def verification(name: str, *findings: VerifierFinding) -> Verification:
    return Verification(verifiers=(VerifierRun(name=name, status=VerifierStatus.FAIL,
                                               findings=findings),))  # fmt: skip


def finding(
    line: int, rule: str, sev: VerifierSeverity = VerifierSeverity.ERROR
) -> VerifierFinding:
    return VerifierFinding(file="a.py", line=line, message="msg", severity=sev, rule_id=rule)


def test_candidates_carry_tool_rule_evidence_and_the_cited_code() -> None:
    diff = diff_adding("a.py", {10: "    subprocess.call(cmd, shell=True)"})
    [c] = verifier_candidates(verification("bandit", finding(10, "B602")), diff)
    assert (c.source, c.evidence.type) == (FindingSource.VERIFIER, EvidenceType.VERIFIER_OUTPUT)
    assert (c.origin, c.rule_id, c.category) == ("bandit", "B602", "security")
    assert (c.severity, c.action) == (Severity.HIGH, Action.FIX)
    assert c.hunk == "    subprocess.call(cmd, shell=True)"
    assert c.fingerprint is not None


def test_fingerprint_survives_a_line_shift_and_reindentation_but_not_a_rule_change() -> None:
    before = verifier_candidates(
        verification("ruff", finding(3, "F841")), diff_adding("a.py", {3: "x = f( 1 )"})
    )[0]
    after = verifier_candidates(
        verification("ruff", finding(40, "F841")), diff_adding("a.py", {40: "    x = f( 1 )"})
    )[0]
    other = verifier_candidates(
        verification("ruff", finding(3, "E501")), diff_adding("a.py", {3: "x = f( 1 )"})
    )[0]
    assert before.fingerprint == after.fingerprint
    assert before.finding_id == after.finding_id
    assert other.fingerprint != before.fingerprint


def test_secret_candidates_never_carry_the_line_and_need_a_human() -> None:
    diff = diff_adding("a.env", {1: "TOKEN=value-that-is-secret"})
    [c] = verifier_candidates(verification("secrets", finding(1, "github_token")), diff)
    assert c.hunk is None
    assert "value-that-is-secret" not in c.model_dump_json()
    assert (c.severity, c.requires_human) == (Severity.CRITICAL, True)


def test_vendored_code_gives_no_lint_or_pattern_candidates_but_secrets_stay() -> None:
    # traefik's Glide bump carried libtrust's InsecureSkipVerify (holdout42): the dependency's
    # code, which the PR only copied; a credential there is leaked all the same
    diff = diff_adding("a.py", {10: "    subprocess.call(cmd, shell=True)", 1: "TOKEN=x"})
    both = Verification(verifiers=(
        *verification("sinks", finding(10, "go-tls-insecure")).verifiers,
        *verification("secrets", finding(1, "github_token")).verifiers,
    ))  # fmt: skip
    assert {c.origin for c in verifier_candidates(both, diff)} == {"sinks", "secrets"}
    kept = verifier_candidates(both, diff, vendored=frozenset({"a.py"}))
    assert [c.origin for c in kept] == ["secrets"]


def test_an_entropy_or_keyword_guess_in_vendored_code_is_no_candidate() -> None:
    # distribution's redis fix vendored miniredis, whose hex constants read as entropy
    # (holdout48); a guess there is about a dependency's constants, not a leak
    diff = diff_adding("a.py", {51: 'ID = "e7d1fe6e8b5c8e0f9d2a"', 3: "k=x"})
    guesses = verification(
        "secrets", finding(51, "hex_high_entropy_string"), finding(3, "secret_keyword")
    )
    assert len(verifier_candidates(guesses, diff)) == 2
    assert verifier_candidates(guesses, diff, vendored=frozenset({"a.py"})) == ()


def test_a_generators_output_gives_no_lint_or_type_candidates_but_patterns_and_secrets_stay(
) -> None:
    # xml2js's compiled lib/parser.js flagged for `instanceof Array` (holdout66): fixed in the
    # CoffeeScript source, not by hand; a shell call or a credential there runs all the same
    diff = diff_adding("a.py", {10: "  if (x instanceof Array) {", 11: "exec(c)", 1: "k"})
    found = Verification(verifiers=(
        *verification("oxlint", finding(10, "unicorn/no-instanceof-builtins")).verifiers,
        *verification("mypy", finding(10, "arg-type")).verifiers,
        *verification("sinks", finding(11, "js-child-process")).verifiers,
        *verification("secrets", finding(1, "github_token")).verifiers,
    ))  # fmt: skip
    assert len(verifier_candidates(found, diff)) == 4
    kept = verifier_candidates(found, diff, generated=frozenset({"a.py"}))
    assert sorted(c.origin for c in kept) == ["secrets", "sinks"]


def test_duplicate_findings_get_distinct_ids() -> None:
    diff = diff_adding("a.py", {1: "x"})
    ids = [c.finding_id for c in verifier_candidates(
        verification("custom:lint", finding(1, "X"), finding(1, "X")), diff)]  # fmt: skip
    assert len(set(ids)) == 2


@pytest.mark.parametrize(
    ("category_run", "sev", "expected"),
    [
        ("ruff", VerifierSeverity.WARNING, Severity.LOW),
        ("mypy", VerifierSeverity.ERROR, Severity.MEDIUM),
        ("bandit", VerifierSeverity.INFO, Severity.LOW),
        ("secrets", VerifierSeverity.WARNING, Severity.HIGH),
    ],
)
def test_severity_mapping(category_run: str, sev: VerifierSeverity, expected: Severity) -> None:
    [c] = verifier_candidates(verification(category_run, finding(1, "R", sev)), Diff((), ""))
    assert c.severity is expected


ROOT = Path("/work/ws/head")


@pytest.mark.parametrize(
    "parse",
    [
        lambda t, r: parse_ruff(t.splitlines(), r),
        lambda t, r: parse_bandit(t, r)[0],
        parse_sarif,
    ],
    ids=["ruff", "bandit", "sarif"],
)
def test_json_parsers_reject_garbage_with_a_reason(parse: object) -> None:
    with pytest.raises(OutputError):
        parse("this is not json", ROOT)  # type: ignore[operator]


def test_ruff_paths_are_made_relative_and_pyflakes_is_an_error() -> None:
    lines = [
        ('{"code": "F401", "message": "unused", "filename": "/work/ws/head/pkg/a.py",'
        ' "location": {"row": 2, "column": 1}, "end_location": {"row": 2, "column": 9}}\n'),
        "\n",
        ('{"code": "E501", "message": "long", "filename": "/work/ws/head/pkg/a.py",'
        ' "location": {"row": 3, "column": 1}}\n'),
    ]
    f401, e501 = parse_ruff(lines, ROOT)
    assert (f401.path, f401.line, f401.severity) == ("pkg/a.py", 2, VerifierSeverity.ERROR)
    assert e501.severity is VerifierSeverity.WARNING


@pytest.mark.parametrize(
    ("code", "severity"),
    [
        ("F821", VerifierSeverity.ERROR),
        ("E999", VerifierSeverity.ERROR),
        ("PLE0101", VerifierSeverity.ERROR),
        ("FA100", VerifierSeverity.WARNING),  # mistune's own config: not pyflakes
        ("FURB101", VerifierSeverity.WARNING),
        ("FBT001", VerifierSeverity.WARNING),
        ("E501", VerifierSeverity.WARNING),
    ],
)
def test_only_pyflakes_and_runtime_errors_are_errors(code: str, severity: VerifierSeverity) -> None:
    line = f'{{"code": "{code}", "message": "m", "filename": "/work/ws/head/a.py"}}\n'
    assert parse_ruff([line], ROOT)[0].severity is severity


@pytest.mark.parametrize(
    "text",
    [
        '{"code": "F401"}',
        '["F401"]',
        '{"code": "F401", "filename": "a.py"}',
        '{"code": 401, "message": "m", "filename": "a.py"}',
        '{"code": "F401", "message": "m", "filename": "a.py", "location": {"row": "2"}}',
        '{"code": "F401", "message": "m", "filename": "a.py", "location": 2}',
    ],
)
def test_ruff_output_of_the_wrong_shape_is_an_output_error(text: str) -> None:
    with pytest.raises(OutputError, match="unexpected shape"):
        parse_ruff([text], ROOT)


def test_a_broken_ruff_line_names_its_line_number() -> None:
    good = '{"code": "F401", "message": "m", "filename": "a.py"}'
    with pytest.raises(OutputError, match="line 2 is not JSON"):
        parse_ruff([good, '{"code": "F4'], ROOT)


def test_ruff_items_without_location_or_code_are_syntax_errors_without_a_line() -> None:
    (item,) = parse_ruff(['{"code": null, "message": "bad", "filename": "a.py"}'], ROOT)
    assert (item.rule_id, item.line, item.end_line) == ("syntax-error", None, None)
    assert item.severity is VerifierSeverity.ERROR


def test_mypy_notes_are_dropped() -> None:
    text = (
        '{"file": "a.py", "line": 3, "message": "bad", "code": "arg-type", "severity": "error"}\n'
        '{"file": "a.py", "line": 3, "message": "see", "code": null, "severity": "note"}\n'
    )
    assert [(f.line, f.rule_id) for f in parse_mypy(text, ROOT)] == [(3, "arg-type")]


def test_generic_parser_reads_levels_and_codes() -> None:
    text = "a.py:1:2: warning: thing [W9]\n./b.py:7: note: fyi\nnot a finding\n"
    got = [(f.path, f.line, f.severity, f.rule_id, f.message) for f in parse_generic(text, ROOT)]
    assert got == [
        ("a.py", 1, VerifierSeverity.WARNING, "W9", "thing"),
        ("b.py", 7, VerifierSeverity.INFO, None, "fyi"),
    ]


def test_sarif_results_without_a_location_are_ignored() -> None:
    assert parse_sarif('{"runs": [{"results": [{"message": {"text": "x"}}]}]}', ROOT) == ()


def test_ruffs_safe_fix_becomes_the_new_text_of_its_line(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text('import os\n\ndef f():\n    return f"hi"\n', "utf-8")

    def item(code: str, row: int, fix: dict[str, object] | None) -> str:
        return json.dumps({"code": code, "message": "m", "filename": str(tmp_path / "app.py"),
                           "location": {"row": row, "column": 1},
                           "end_location": {"row": row, "column": 2}, "fix": fix})  # fmt: skip

    def edit(row: int, col: int, end_row: int, end_col: int, content: str) -> dict[str, object]:
        return {"content": content, "location": {"row": row, "column": col},
                "end_location": {"row": end_row, "column": end_col}}  # fmt: skip

    lines = [
        item("F541", 4, {"applicability": "safe", "edits": [edit(4, 12, 4, 17, '"hi"')]}),
        item("F401", 1, {"applicability": "safe", "edits": [edit(1, 1, 2, 1, "")]}),
        item("E711", 4, {"applicability": "unsafe", "edits": [edit(4, 12, 4, 17, "x")]}),
        item("X1", 3, {"applicability": "safe", "edits": [edit(3, 1, 4, 3, "y")]}),
        item("X2", 3, None),
    ]
    found = {f.rule_id: f.replacement for f in parse_ruff(lines, tmp_path)}
    assert found == {"F541": '    return "hi"', "F401": "", "E711": None, "X1": None, "X2": None}


def test_sink_hits_in_test_code_are_not_findings(tmp_path: Path) -> None:
    from pr_review.verifiers.polyglot import sink_findings

    def hit(path: str) -> str:
        return json.dumps({"path": str(tmp_path / path), "line": 677, "end_line": 677,
                           "rule": "go-tls-insecure", "message": "TLS off",
                           "severity": "error"})  # fmt: skip

    # fiber's transport test dials its own self-signed server (holdout2, read after its figures)
    report = [hit("client/transport_test.go"), hit("client/transport.go")]
    assert [f.path for f in sink_findings(report, tmp_path)] == ["client/transport.go"]


def test_lint_and_types_in_documentation_examples_are_left_out_security_is_not() -> None:
    from pr_review.verifiers.model import RawFinding
    from pr_review.verifiers.outcome import _outside_docs

    def raw(path: str, rule: str) -> RawFinding:
        return RawFinding(path, 16, None, rule, "m", VerifierSeverity.ERROR)

    # pyramid's wiki2 tutorial models (holdout23): a forward reference between two modules
    tutorial = raw("docs/tutorials/wiki2/src/models/tutorial/models/page.py", "F821")
    code = raw("src/pyramid/router.py", "F821")
    assert _outside_docs("ruff", (tutorial, code)) == ((code,), 1)
    assert _outside_docs("mypy", (tutorial,)) == ((), 1)
    # the same tutorial's own tests (a test folder under docs/): illustrations too
    tutorial_test = raw("docs/tutorials/wiki2/src/tests/tutorial/models/user.py", "F821")
    project_test = raw("tests/test_router.py", "F821")
    assert _outside_docs("ruff", (tutorial_test, project_test)) == ((project_test,), 1)
    shell = raw("examples/deploy.js", "js-shell-interpolated")
    assert _outside_docs("sinks", (shell,)) == ((shell,), 0)
