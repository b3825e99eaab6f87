"""Values output as trusted markup (escaping switched off), changed by a PR."""

from __future__ import annotations

import pytest

from pr_review.evidence.raw_markup import (
    FACTOR,
    RAW_MARKUP_EXAMPLES,
    TEMPLATE_RULES,
    TemplateRule,
    raw_markup_factors,
    read,
)
from pr_review.schema.enums import Lane
from pr_review.sources.diff import FileStatus
from pr_review.sources.model import MemoryTree
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "base", "head", "changed"), RAW_MARKUP_EXAMPLES, ids=range(len(RAW_MARKUP_EXAMPLES))
)
def test_examples(path: str, base: str, head: str, changed: bool) -> None:
    diff = file_diff(path, head.splitlines(), base.splitlines())
    found = raw_markup_factors([diff], MemoryTree({path: base}), MemoryTree({path: head}))
    assert [f.factor for f in found] == ([FACTOR] if changed else [])


@pytest.mark.parametrize("rule", TEMPLATE_RULES, ids=[r.name for r in TEMPLATE_RULES])
def test_template_rules_find_their_examples(rule: TemplateRule) -> None:
    for line in rule.bad:
        assert len(rule.pattern.findall(line)) == 1, line
    for line in rule.good:
        assert not rule.pattern.search(line), line
    # and no other template rule reads the same line (one site, one count)
    for other in TEMPLATE_RULES:
        if other is not rule:
            assert not any(other.pattern.search(line) for line in rule.bad), other.name


def test_sites_are_read_from_code_and_templates_only() -> None:
    py = read(
        "app/tags.py",
        "a = mark_safe(x)\nb = mark_safe('<br>')\nc = Markup(escape(y) + z)\n"
        "d = Markup(escape(y))\n",
    )
    assert py is not None  # a constant, or a value escaped throughout, outputs nothing unescaped
    assert [(s.line, s.escapes) for s in py] == [(1, 0), (3, 1)]
    page = read("templates/p.html", "<p>{{ a|safe }}</p>\n<p>{{ b }}</p>\n{% autoescape off %}\n")
    assert page is not None
    assert [s.line for s in page] == [1, 3]
    assert read("README.md", "{{ a|safe }}") is None
    assert read("app/tags.py", None) is None


def test_a_new_file_with_raw_output_changes_nothing_trusted_before() -> None:
    path = "src/components/Markdown.tsx"
    head = "export const M = ({ html }) => <div dangerouslySetInnerHTML={{ __html: html }} />;\n"
    diff = file_diff(path, head.splitlines(), [], status=FileStatus.ADDED)
    assert raw_markup_factors([diff], MemoryTree({}), MemoryTree({path: head})) == []


def test_a_site_moved_between_the_prs_files_is_no_change() -> None:
    a, b = "app/views.py", "app/render.py"
    base = {a: "def f(x):\n    return mark_safe(x)\n", b: "def g():\n    return 1\n"}
    head = {a: "def f(x):\n    return g(x)\n", b: "def g(x):\n    return mark_safe(x)\n"}
    files = [file_diff(p, head[p].splitlines(), base[p].splitlines()) for p in (a, b)]
    assert raw_markup_factors(files, MemoryTree(base), MemoryTree(head)) == []


def test_an_xss_fix_is_red_and_says_where() -> None:
    path, base, head, _ = RAW_MARKUP_EXAMPLES[1]
    lane, factors = lane_and_factors(
        files=[file_diff(path, head.splitlines(), base.splitlines())],
        base={path: base},
        head={path: head},
    )
    assert lane is Lane.RED
    assert factors[f"{FACTOR}:red"].why.startswith(
        "a value output as trusted markup (escaping switched off) removed (line 2 of the base "
        "file: `{{ message|safe }}`; 1 such output(s) with 0 escape(s) before, 0 with 0 after)"
    )
