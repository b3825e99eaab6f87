"""Hostile strings on every GitHub surface: no mention, no HTML, no link, no fake heading.

The packet, inline review comments, the check run's summary and annotations, the job summary
and the workflow commands all escape through one module (``pr_review.packet.neutralize``;
workflow commands through the toolkit's own rules).
"""

from __future__ import annotations

import io
import re

import pytest

from pr_review.packet.neutralize import code, inline, paragraphs
from pr_review.publish import inline as inline_comments
from pr_review.publish import workflow as wf
from pr_review.publish.report import check_annotations, check_summary, workflow_annotations
from pr_review.schema.enums import Lane
from tests.packet.fixtures import cand, pack, synthesized

HOSTILE_PATH = "src/a.py\n\n## ✅ Approved\n\n@octo-org/admins <img src=x onerror=alert(1)>.py"
HOSTILE_TITLE = "@security-team see [click](https://evil.example/x) <b>now</b>\n# ✅ Approved"
HOSTILE_WHY = (
    "Line one @alice\n\n# ✅ Approved by maintainers\n> quoted\n- list\n1. numbered\n"
    "<!-- pr-review-guardrails:packet --> ![img](http://x/y.png) www.evil.example"
)


def _hostile() -> tuple[object, ...]:
    return synthesized(
        cand("f1", title=HOSTILE_TITLE, file=HOSTILE_PATH, why_it_matters=HOSTILE_WHY)
    )


def _assert_inert(markdown: str) -> None:
    """No live mention, tag, link, image or heading/quote/list line from the hostile text."""
    prose = re.sub(r"`[^`\n]*`", "", markdown)  # a code span never mentions nor links
    assert not re.search(r"@(?=[A-Za-z0-9_-])", prose.replace("@\u200b", ""))
    assert "<img" not in markdown
    assert "<b>" not in markdown
    assert "<!--" not in markdown
    assert "](" not in markdown.replace("\\](", "")
    assert "https://evil" not in markdown
    assert "http://x" not in markdown
    assert "www.evil" not in markdown
    for line in markdown.splitlines():
        assert not re.match(r"\s*(#|>|- list|1\. numbered)", line), line
        assert "Approved" not in line or line.lstrip()[:1] not in "#>", line


def test_inline_defuses_everything() -> None:
    out = inline(HOSTILE_TITLE)
    assert "\n" not in out
    assert "@\u200bsecurity-team" in out
    assert "&lt;b&gt;" in out
    assert "\\[click\\]" in out
    assert "https:\u200b//evil.example" in out
    _assert_inert(out)


@pytest.mark.parametrize("start", ["# h", "> q", "- l", "+ l", "* l", "= x", "| t", "3. n", "7) n"])
def test_inline_escapes_a_leading_block_marker(start: str) -> None:
    out = inline(start)
    # An entity (``&gt;``) never starts a block in CommonMark; a backslash escapes the rest.
    assert out.startswith(("\\", "&gt;")) or re.match(r"\d+\\[.)]", out), out


def test_paragraphs_keep_lines_but_escape_each() -> None:
    out = paragraphs(HOSTILE_WHY)
    assert out.splitlines()[0] == "Line one @\u200balice"
    assert "\\# ✅ Approved by maintainers" in out
    _assert_inert(out)


def test_code_puts_a_path_with_newlines_on_one_line() -> None:
    out = code(HOSTILE_PATH)
    assert "\n" not in out
    assert out.startswith("`")
    assert out.endswith("`")
    assert out.count("`") == 2


def test_inline_review_comment_body_is_inert() -> None:
    (finding,) = _hostile()
    body = inline_comments.body_for(finding)  # type: ignore[arg-type]
    meta = inline_comments.meta_marker(finding)  # type: ignore[arg-type]
    assert meta.count("-->") == 1
    assert meta.endswith(" -->")
    assert "<" not in meta[4:]
    assert ">" not in meta[:-3]
    _assert_inert(
        body.replace(
            inline_comments.FINGERPRINT_MARKER.format(inline_comments.fingerprint_of(finding)), ""
        ).replace(meta, "")
    )  # type: ignore[arg-type]


def test_check_run_summary_is_inert_and_the_path_stays_on_one_line() -> None:
    findings = _hostile()
    summary = check_summary(pack(Lane.RED).risk, findings, "a" * 40)  # type: ignore[arg-type]
    _assert_inert(summary)
    assert not any(line.strip() == "## ✅ Approved" for line in summary.splitlines())


def test_check_run_annotation_title_is_one_line() -> None:
    findings = _hostile()
    (ann,) = check_annotations(findings)  # type: ignore[arg-type]
    assert "\n" not in ann["title"]


def test_workflow_annotations_cannot_start_a_second_command() -> None:
    findings = _hostile()
    out = io.StringIO()
    wf.emit_annotations(workflow_annotations(findings), out)  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("::error file=src/a.py%0A%0A## ✅ Approved%0A%0A")
    assert "%0A" in lines[0]
    assert "\r" not in lines[0]


@pytest.mark.parametrize(
    ("raw", "data", "prop"),
    [
        ("50%", "50%25", "50%25"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x::error::y", "x::error::y", "x%3A%3Aerror%3A%3Ay"),
        ("a,b", "a,b", "a%2Cb"),
    ],
)
def test_workflow_command_escaping_follows_the_toolkit(raw: str, data: str, prop: str) -> None:
    assert wf.escape_data(raw) == data
    assert wf.escape_property(raw) == prop
