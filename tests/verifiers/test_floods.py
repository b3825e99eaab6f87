"""A flood (one rule hit many times in one PR) is one finding with the count and its first
places; other rules are untouched; nothing is dropped without being counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pr_review.schema.enums import VerifierSeverity
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.outcome import FLOOD_MIN, FLOOD_PLACES, collapse_floods
from tests.gitrepo import GitRepo
from tests.verifiers.offline import review_offline


def _hit(path: str, line: int, rule: str, severity: VerifierSeverity) -> RawFinding:
    return RawFinding(path, line, line, rule, f"{rule} at {line}", severity)


def test_a_flood_is_one_finding_with_its_count_and_first_places() -> None:
    warn, error = VerifierSeverity.WARNING, VerifierSeverity.ERROR
    flood = [_hit(f"pkg/m{i:03}.py", n, "E501", warn) for i in range(30) for n in (1, 2)]
    flood[17] = _hit(flood[17].path, flood[17].line or 0, "E501", error)
    others = [_hit("pkg/m000.py", 5, "F821", error), _hit("pkg/m001.py", 9, "B006", warn)]
    kept = tuple(sorted(flood + others, key=lambda f: (f.path, f.line or 0)))
    findings, notes = collapse_floods(kept)
    floods = [f for f in findings if f.rule_id == "E501"]
    assert len(floods) == 1
    (one,) = floods
    assert one.count == 60
    assert (one.file, one.line) == ("pkg/m000.py", 1)
    assert one.severity is VerifierSeverity.ERROR  # the worst of its hits
    assert one.message.startswith("60 hits of E501 in 30 file(s): pkg/m000.py:1, pkg/m000.py:2")
    assert f"and {60 - FLOOD_PLACES} more" in one.message
    assert sorted(f.rule_id or "" for f in findings if f.rule_id != "E501") == ["B006", "F821"]
    assert notes == ["E501 hit 60 times in 30 file(s): reported as one finding with the count"]


def test_at_the_threshold_every_hit_stays_its_own_finding() -> None:
    kept = tuple(_hit(f"a{i}.py", 1, "F821", VerifierSeverity.ERROR) for i in range(FLOOD_MIN))
    findings, notes = collapse_floods(kept)
    assert len(findings) == FLOOD_MIN
    assert all(f.count == 1 for f in findings)
    assert notes == []


@pytest.mark.slow
def test_a_flood_reaches_the_packet_as_one_ranked_finding(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# demo\n")
    repo.commit("base")
    repo.branch("feature")
    for i in range(40):
        repo.write(f"pkg/mod{i:02}.py", f"def f{i}():\n    return undefined_{i}\n")
    repo.commit("Use the new helpers")
    review_offline(repo.path, tmp_path / "out")
    findings = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    undefined = [f for f in findings if f["rule_id"] == "F821"]
    assert len(undefined) == 1, [f["title"] for f in undefined]
    assert not undefined[0]["suppressed"]
    assert "and 39 more hit(s)" in undefined[0]["title"]
    packet = (tmp_path / "out" / "packet.md").read_text(encoding="utf-8")
    assert "40 hits of F821 in 40 file(s)" in packet
