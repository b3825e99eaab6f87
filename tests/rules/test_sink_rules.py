"""The sink rule set: every rule's bad examples match and its good ones do not, through the
in-process engine (the lane's consumer) and through the verifier's own process (the
findings' consumer); the files follow the format; languages by file name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pr_review.rules import (
    LANGUAGE_BY_SUFFIX,
    SinkCategory,
    SinkLane,
    SinkRule,
    language_of,
    load_sink_rules,
)
from pr_review.rules.engine import scan_source

RULES = load_sink_rules()
SUFFIX = {lang: suffix for suffix, lang in reversed(LANGUAGE_BY_SUFFIX.items())}


def test_the_rule_set_covers_every_language_the_issue_names() -> None:
    languages = {lang for rule in RULES for lang in rule.languages}
    assert {"javascript", "typescript", "tsx", "go", "java", "ruby", "php"} <= languages
    categories = {rule.category for rule in RULES}
    assert {SinkCategory.CODE_EVAL, SinkCategory.SHELL, SinkCategory.SQL, SinkCategory.PATH,
            SinkCategory.TLS, SinkCategory.COOKIE} <= categories  # fmt: skip


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_each_rule_has_examples_of_both_kinds(rule: SinkRule) -> None:
    assert rule.bad, rule.id
    assert rule.good, rule.id
    assert rule.why.strip()
    assert rule.severity in ("error", "warning")
    assert rule.lane in (SinkLane.RED, SinkLane.YELLOW)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_bad_examples_match_and_good_ones_do_not(rule: SinkRule) -> None:
    for language in rule.languages:
        for bad in rule.bad:
            hits = scan_source(bad, language, (rule,))
            assert [h.rule_id for h in hits] == [rule.id], (language, bad)
        for good in rule.good:
            assert scan_source(good, language, (rule,)) == [], (language, good)


def test_the_verifier_process_reads_the_same_rules(tmp_path: Path) -> None:
    """Every bad example of a reported rule written as a file of its language is reported by
    ``python -m pr_review.rules`` with the rule's id (the findings' consumer); a watched
    construct (``report: false``) never is: it is lane evidence, not a defect."""
    expected = []
    names = []
    for n, rule in enumerate(RULES):
        language = rule.languages[0]
        for m, bad in enumerate(rule.bad):
            name = f"case{n}_{m}{SUFFIX[language]}"
            (tmp_path / name).write_text(bad, encoding="utf-8")
            names.append(name)
            expected.append((name, rule.id))
    out = tmp_path / "hits.jsonl"
    subprocess.run(
        [sys.executable, "-I", "-m", "pr_review.rules", "--output", str(out), "--", *names],
        cwd=tmp_path, check=True, timeout=120,
    )  # fmt: skip
    hits = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by_id = {rule.id: rule for rule in RULES}
    found: dict[str, set[str]] = {}
    for hit in hits:
        found.setdefault(hit["path"], set()).add(hit["rule"])
    for name, rule_id in expected:
        rules = found.get(name, set())
        if not by_id[rule_id].report:
            assert not any(not by_id[r].report for r in rules), (name, rules)
            continue
        # On a line where request input reaches the sink, the untrusted rule of the same
        # category speaks for the generic one (see the next test).
        assert rule_id in rules or any(
            by_id[r].untrusted and by_id[r].category is by_id[rule_id].category for r in rules
        ), (name, rule_id, rules)


def test_untrusted_hit_wins_over_the_generic_one_on_a_line() -> None:
    hits = scan_source("exec(`convert ${req.query.file} out.png`);", "typescript")
    assert [h.rule_id for h in hits] == ["js-shell-untrusted"]


def test_a_rule_that_weighs_rewrites_wins_over_a_watched_one_on_a_line() -> None:
    """A tag and an attribute fragment on one line are one markup hit: the tag rule, whose
    rewrite counts for the lane (an XSS fix rewrites exactly such a line)."""
    hits = scan_source("const b = '<a href=\"' + escapeHtml(u) + '\">' + u;", "javascript")
    assert [h.rule_id for h in hits] == ["js-html-concat"]


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/app.ts", "typescript"),
        ("src/App.tsx", "tsx"),
        ("lib/index.mjs", "javascript"),
        ("types/index.d.ts", None),
        ("cmd/main.go", "go"),
        ("app/models/user.rb", "ruby"),
        ("README.md", None),
        ("setup.py", "python"),
    ],
)
def test_language_of(path: str, language: str | None) -> None:
    assert language_of(path) == language


def test_a_file_that_does_not_parse_yields_what_was_recovered() -> None:
    text = "function (( {\nconst x = eval(String(req.query.expr));\n"
    assert [h.line for h in scan_source(text, "javascript")] == [2]


def test_every_category_has_a_fix_text_for_the_verifier() -> None:
    from pr_review.rules import SinkCategory
    from pr_review.verifiers.rule_catalog import SINK_FIX, rule_text

    assert set(SINK_FIX) == {c.value for c in SinkCategory}
    for rule in RULES:
        assert rule_text("sinks", rule.id) is not None, rule.id
