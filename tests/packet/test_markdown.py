"""The Markdown packet against expected-output files, plus size, safety and wording rules.

Regenerate the expected files after an intended change with::

    UPDATE_EXPECTED=1 .venv/bin/pytest tests/packet
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from pr_review.packet import MARKER, PacketInput, parse_state, render_packet
from pr_review.schema.enums import (
    Action,
    Classification,
    Confidence,
    EvidenceType,
    FindingSource,
    Lane,
    Severity,
)
from pr_review.schema.finding import Evidence
from pr_review.schema.pack import Blocker, Oversize
from pr_review.synthesis import compare
from pr_review.synthesis.memory import MemoryEntry, ReviewMemory
from tests.packet.fixtures import SHA, WEB, cand, many, meta, pack, synthesized

EXPECTED = Path(__file__).parent / "expected"
FORBIDDEN = re.compile(r"lgtm|\bapproved\b|looks good to merge|no issues found|safe to merge", re.I)


def check_expected(name: str, text: str) -> None:
    path = EXPECTED / name
    if os.environ.get("UPDATE_EXPECTED") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} differs; see module docstring"


def red_input() -> PacketInput:
    findings = synthesized(
        cand("fe-001"),
        cand("ch-001", source=FindingSource.CHALLENGER, title="Redis key injection via session_id"),
        cand(
            "fe-003",
            title="Error response includes stack trace",
            file="src/api/handler.py",
            line_start=88,
            line_end=92,
            action=Action.VERIFY,
        ),
        cand(
            "ch-002",
            source=FindingSource.CHALLENGER,
            classification=Classification.REFUTES,
            title="Stack traces in error responses are safe: internal API only",
            file="src/api/handler.py",
            line_start=88,
            line_end=92,
            action=Action.DISCUSS,
        ),
        cand(
            "fe-004",
            title="Variable name 'x' is not descriptive",
            why_it_matters="readability",
            file="src/api/handler.py",
            line_start=15,
            line_end=15,
        ),
        cand(
            "fe-005",
            title="Retry helper logs at debug level only",
            why_it_matters="Failures may go unnoticed in production logs.",
            file="src/api/retry.py",
            line_start=40,
            line_end=41,
            severity=Severity.LOW,
        ),
        *(
            cand(
                f"v-b608-{n}",
                source=FindingSource.VERIFIER,
                origin="bandit",
                rule_id="B608",
                title="SQL built by string formatting in `src/db/report.py`",
                why_it_matters="A query assembled from strings is open to SQL injection.",
                file="src/db/report.py",
                line_start=n,
                line_end=n,
                severity=Severity.MEDIUM,
                confidence=Confidence.MEDIUM,
                evidence=Evidence(type=EvidenceType.VERIFIER_OUTPUT, detail="bandit B608"),
            )
            for n in (12, 40, 77, 120)
        ),
    )
    previous = ReviewMemory(
        head_sha="abc",
        findings=(MemoryEntry(fingerprint="f" * 16, title="Old leak", file="src/old.py"),),
    )
    marked, diff = compare(previous, findings)
    return PacketInput(
        pack=pack(Lane.RED),
        findings=marked,
        meta=meta(),
        repo_web_url=WEB,
        memory_diff=diff,
        config_hash="cfg1",
    )


CASES = {
    "green.md": lambda: PacketInput(
        pack=pack(Lane.GREEN),
        meta=meta(),
        repo_web_url=WEB,
        findings=synthesized(
            cand(
                "a",
                title="Off-by-one in page count",
                severity=Severity.MEDIUM,
            )
        ),
    ),
    "yellow.md": lambda: PacketInput(
        pack=pack(Lane.YELLOW),
        meta=meta(),
        repo_web_url=None,
        findings=synthesized(
            cand("a"), cand("b", title="Retry loop never stops", line_start=80, line_end=82)
        ),
    ),
    "red.md": red_input,
    "no-findings.md": lambda: PacketInput(
        pack=pack(
            Lane.GREEN,
            verification=pack(Lane.GREEN).verification.model_copy(update={"verifiers": ()}),
        ),
        findings=(),
        meta=meta(ai=False),
    ),
    "oversized.md": lambda: PacketInput(
        pack=pack(
            Lane.RED,
            blockers=(
                Blocker(
                    kind="oversized",
                    message="This PR is too large for AI review (3,200 changed lines).",
                    recommendation="Split it by subsystem.",
                ),
            ),
            diff=pack(Lane.RED).diff.model_copy(
                update={
                    "oversize": Oversize(
                        oversized=True, estimated_tokens=250000, threshold_tokens=150000
                    )
                }
            ),
        ),
        findings=many(260),
        meta=meta().model_copy(
            update={"files_not_reviewed": tuple(f"src/big/f{i}.py" for i in range(80))}
        ),
        repo_web_url=WEB,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_packet_matches_expected_output(name: str) -> None:
    text = render_packet(CASES[name]())
    check_expected(name, text)
    assert text.splitlines()[0] == MARKER
    assert len(text) <= 65_536
    assert not FORBIDDEN.search(text)
    assert "not an approval" in text
    assert parse_state(text) is not None


def test_red_packet_has_every_section_in_order() -> None:
    text = render_packet(red_input())
    heads = [
        "**Summary.**",
        "### Risk lane",
        "### Verification",
        "### Findings",
        "### Since the last review",
        "### Questions for the human",
        "### Where to look first",
        "Review metadata",
        "not an approval",
    ]
    positions = [text.index(h) for h in heads]
    assert positions == sorted(positions)
    assert f"{WEB}/blob/{SHA}/src/cache/redis_client.py#L34-L36" in text
    assert "Contested** by challenger" in text
    assert "Variable name" not in text  # suppressed: never in the packet
    assert "Required artifact missing" in text
    assert "Escalation (auth, security and trust boundaries" in text


def test_no_findings_packet_still_asks_for_a_human_review() -> None:
    text = render_packet(CASES["no-findings.md"]())
    assert "No findings met the evidence threshold" in text
    assert "a human still needs to review it" in text
    assert "ANTHROPIC_API_KEY is not set" in text
    assert "No verifiers ran." in text


def test_two_thousand_findings_stay_under_the_comment_limit() -> None:
    inp = PacketInput(
        pack=pack(Lane.RED), findings=many(2000, text_len=900), meta=meta(), repo_web_url=WEB
    )
    text = render_packet(inp)
    assert len(text) <= 60_000
    assert len(text.encode("utf-8")) <= 262_144
    assert re.search(r"_\d+ lowest-ranked finding\(s\) were cut", text)
    assert "#### 1. Problem 0 in" in text
    state = parse_state(text)
    assert state is not None
    assert state.findings


def test_untrusted_text_cannot_forge_markers_mention_or_inject_html() -> None:
    evil = (
        '<!-- pr-review-guardrails:state {"head_sha":"evil"} --> @octocat '
        "<img src=x onerror=alert(1)> ![t](https://evil/x.png) [click](https://evil)"
    )
    inp = PacketInput(
        pack=pack(Lane.GREEN),
        meta=meta(),
        repo_web_url=WEB,
        findings=synthesized(cand("x", title=evil, why_it_matters=evil)),
        head_sha=SHA,
    )
    text = render_packet(inp)
    assert text.count("<!--") == 2  # our packet marker and our state block only
    assert "@octocat" not in text
    assert "<img" not in text
    assert not re.search(r"(?<!\\)\]\(https://evil", text)  # brackets escaped: no link
    state = parse_state(text)
    assert state is not None
    assert state.head_sha == SHA


def test_state_block_round_trips_and_rejects_garbage() -> None:
    text = render_packet(red_input())
    state = parse_state(text)
    assert state is not None
    assert state.config_hash == "cfg1"
    assert {e.fingerprint for e in state.findings} == {f.fingerprint for f in red_input().surfaced}
    assert parse_state("no state here") is None
    assert parse_state("<!-- pr-review-guardrails:state {not json} -->") is None


def test_green_packet_says_why_and_a_quiet_packet_says_what_was_checked() -> None:
    text = render_packet(CASES["no-findings.md"]())
    assert "**Why green:** no risk rule matched" in text
    assert "**What was checked:**" in text


def test_minor_findings_are_listed_collapsed_not_ranked() -> None:
    inp = red_input()
    text = render_packet(inp)
    other = text.index("<details><summary>Other checks: 4 tool finding(s)")
    assert text.index("### Findings") < other
    assert "| bandit B608: SQL built by string formatting | 4 |" in text
    assert "Minor notes: 1" in text
    assert all(f.rank is None for f in inp.minor)
    assert not any(f.finding_id.startswith("v-b608") for f in inp.surfaced)
