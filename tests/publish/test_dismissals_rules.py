"""Dismissal parsing and access rules, without GitHub."""

from __future__ import annotations

import pytest

from pr_review.publish.dismissals import _COMMAND, Found, remember, split_by_access
from pr_review.synthesis.memory import Dismissal, ReviewMemory


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("/review dismiss", ""),
        ("/review dismiss false positive: checked", "false positive: checked"),
        ("  /Review   DISMISS  tests only\nmore text", "tests only"),
    ],
)
def test_the_command_and_its_reason(body: str, reason: str) -> None:
    match = _COMMAND.match(body)
    assert match is not None
    assert match.group("reason").strip() == reason


@pytest.mark.parametrize("body", ["/review", "/review dismissed", "please /review dismiss", "ok"])
def test_other_replies_are_not_dismissals(body: str) -> None:
    assert _COMMAND.match(body) is None


def test_writers_dismiss_others_are_ignored_each_login_looked_up_once() -> None:
    looked: list[str] = []

    def permission(login: str) -> str:
        looked.append(login)
        return {"maintainer": "write", "owner": "admin"}.get(login, "read")

    raw = [
        Dismissal(fingerprint="a", by="drive-by", how="reply", reason="nope"),
        Dismissal(fingerprint="a", by="maintainer", how="reply", reason="fine"),
        Dismissal(fingerprint="a", by="owner", how="reaction"),
        Dismissal(fingerprint="b", by="drive-by", how="reaction"),
    ]
    found = split_by_access(raw, permission)
    assert [(d.fingerprint, d.by) for d in found.accepted] == [("a", "maintainer")]
    assert [(d.fingerprint, d.by) for d in found.ignored] == [("a", "drive-by"), ("b", "drive-by")]
    assert sorted(looked) == ["drive-by", "maintainer", "owner"]


def test_earlier_dismissals_are_kept_and_ignored_ones_are_not_carried() -> None:
    before = ReviewMemory(dismissed=(Dismissal(fingerprint="a", by="x", how="reply"),))
    later = Found(
        accepted=(Dismissal(fingerprint="a", by="y", how="reaction"),
                  Dismissal(fingerprint="b", by="y", how="reaction")),
        ignored=(Dismissal(fingerprint="c", by="z", how="reply"),),
    )  # fmt: skip
    memory = remember(before, later)
    assert [(d.fingerprint, d.by) for d in memory.dismissed] == [("a", "x"), ("b", "y")]
    assert [d.by for d in memory.ignored_dismissals] == ["z"]


def test_a_configured_dismissal_names_exactly_one_selector() -> None:
    from pydantic import ValidationError

    from pr_review.synthesis.settings import DismissRule

    assert DismissRule(rule="B101", reason="tests assert").paths == ("**",)
    with pytest.raises(ValidationError, match="exactly one of"):
        DismissRule(rule="B101", fingerprint="3f9c2a0b1d7e4c55", reason="both")
    with pytest.raises(ValidationError, match="exactly one of"):
        DismissRule(reason="neither")
