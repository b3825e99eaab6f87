"""``pr-review outcomes`` on a loopback repository with a few PRs' history: every inline
finding's fate, acceptance per source/rule/category, rules worth turning off, JSON and
Markdown, pagination, and one-line errors for a bad token, a missing repository, no access."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.github_server import BOT, FakeGitHub, FakePull, user

pytestmark = pytest.mark.slow


def _comment(gh: FakeGitHub, pr: int, mark: str, meta: dict[str, Any], title: str) -> int:
    body = (f"**HIGH: {title}**\n\nwhy\n\n<!-- pr-review-guardrails:finding {mark} -->\n"
            f"<!-- pr-review-guardrails:meta {json.dumps(meta)} -->")  # fmt: skip
    cid = gh.next_id()
    gh.review_comments.append({"id": cid, "pull_number": pr, "body": body, "path": "app/x.py",
                               "line": 3, "user": BOT, "commit_id": "a" * 40})  # fmt: skip
    return cid


def _reply(gh: FakeGitHub, pr: int, parent: int, body: str, login: dict[str, Any]) -> None:
    reply = {"id": gh.next_id(), "pull_number": pr, "body": body, "path": "app/x.py",
             "in_reply_to_id": parent, "user": login}  # fmt: skip
    gh.review_comments.append(reply)


RUFF = {"source": "verifier", "producer": "ruff", "rule": "B006", "category": "lint"}
MODEL = {"source": "fresh_eyes", "producer": "fresh_eyes", "rule": None, "category": "correctness"}


@pytest.fixture
def history() -> Iterator[FakeGitHub]:
    with FakeGitHub("octo/demo") as gh:
        gh.permissions.update({"maintainer": "write", "drive-by": "read"})
        for n, day in ((1, "2026-03-01"), (2, "2026-03-02"), (3, "2026-03-03"), (4, "2026-03-04")):
            gh.add_pull(FakePull(number=n, head_sha=f"{n}" * 40, base_sha="b" * 40,
                                 state="closed", merged_at=f"{day}T10:00:00Z",
                                 updated_at=f"{day}T10:00:00Z"))  # fmt: skip
        gh.add_pull(FakePull(number=5, head_sha="5" * 40, base_sha="b" * 40, state="closed",
                             updated_at="2026-03-05T10:00:00Z"))  # closed unmerged: not read
        gh.add_pull(FakePull(number=6, head_sha="6" * 40, base_sha="b" * 40, state="closed",
                             merged_at="2025-01-01T00:00:00Z",
                             updated_at="2025-01-01T00:00:00Z"))  # before --since  # fmt: skip
        fixed = _comment(gh, 1, "f1", MODEL, "Negative amount charged")
        _reply(gh, 1, fixed, "Fixed in 1111111111: this finding is no longer reported ...", BOT)
        for i in range(3):  # one rule, dismissed three times: worth turning off
            c = _comment(gh, 2, f"d{i}", RUFF, "Mutable default argument")
            _reply(gh, 2, c, "/review dismiss intended", user("maintainer"))
        ignored = _comment(gh, 3, "o1", MODEL, "Unchecked input")
        _reply(gh, 3, ignored, "/review dismiss nope", user("drive-by"))  # no write access
        resolved = _comment(gh, 4, "r1", MODEL, "Race on the counter")
        gh.resolve_as(resolved, "maintainer")
        _comment(gh, 6, "old", RUFF, "Too old")
        yield gh


TOKEN = "loopback-token"  # the loopback server accepts any token


def _run(
    gh: FakeGitHub, tmp_path: Path, *extra: str, token: str = TOKEN
) -> subprocess.CompletedProcess[str]:
    env = {"GITHUB_TOKEN": token, "GITHUB_API_URL": gh.base_url, "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "pr_review", "outcomes", "--repo", "octo/demo",
         "--since", "2026-01-01", "--out-dir", str(tmp_path / "out"), *extra],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip


def test_every_inline_findings_fate_and_the_rules_worth_turning_off(
    history: FakeGitHub, tmp_path: Path
) -> None:
    done = _run(history, tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "out" / "outcomes.json").read_text(encoding="utf-8"))
    assert data["merged_prs"] == 4
    fates = {o["fingerprint"]: (o["fate"], o["by"]) for o in data["outcomes"]}
    assert fates == {
        "f1": ("fixed", None), "d0": ("dismissed", "maintainer"),
        "d1": ("dismissed", "maintainer"), "d2": ("dismissed", "maintainer"),
        "o1": ("open", None), "r1": ("resolved", "maintainer"),
    }  # fmt: skip
    assert data["by_source"]["fresh_eyes"]["accepted"] == round(2 / 3, 3)
    assert data["by_rule"]["ruff:B006"]["dismissed"] == 3
    assert data["by_category"]["lint"]["accepted"] == 0
    (advice,) = data["turn_off"]
    assert advice["rule"] == "ruff:B006"
    assert advice["config"] == {"paths": ["**"], "rule": "B006",
                                "reason": "rarely acted on (pr-review outcomes)"}  # fmt: skip
    md = (tmp_path / "out" / "outcomes.md").read_text(encoding="utf-8")
    summary = ("6 inline finding(s) on 4 merged PR(s) since 2026-01-01: 1 fixed, 3 dismissed, "
               "1 resolved, 1 open.")  # fmt: skip
    assert summary in md
    assert "| ruff:B006 | 3 | 0 | 3 | 0 | 0 | 0% |" in md
    assert "`ruff:B006`: posted 3, accepted 0%, dismissed 100%" in md


def test_pages_are_followed(history: FakeGitHub, tmp_path: Path) -> None:
    for n in range(10, 140):  # more merged PRs than one page of 100
        history.add_pull(FakePull(number=n, head_sha="c" * 40, base_sha="b" * 40,
                                  state="closed", merged_at="2026-02-01T00:00:00Z",
                                  updated_at="2026-02-01T00:00:00Z"))  # fmt: skip
    done = _run(history, tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "out" / "outcomes.json").read_text(encoding="utf-8"))
    assert data["merged_prs"] == 134


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (401, "the token is invalid or expired"),
        (403, "cannot read this repository's pull requests"),
        (404, "no repository octo/demo"),
    ],
)
def test_github_refusals_are_one_line(
    history: FakeGitHub, tmp_path: Path, status: int, expected: str
) -> None:
    history.fail("GET", r"/pulls$", status, times=10)
    done = _run(history, tmp_path)
    assert done.returncode != 0
    assert expected in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2


def test_a_missing_token_and_a_bad_repository_name(history: FakeGitHub, tmp_path: Path) -> None:
    done = _run(history, tmp_path, token="")
    assert "no GitHub token: set GITHUB_TOKEN" in done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "pr_review", "outcomes", "--repo", "demo"],
        capture_output=True, text=True, timeout=60, check=False,
        env={"GITHUB_TOKEN": "t", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert "give it as OWNER/NAME" in bad.stderr
