"""Trailer parsing, as a table of messages and what ``git interpret-trailers`` finds in them.

Each case is also checked against git itself, so the table cannot drift from git's rules.
"""

from __future__ import annotations

import pytest

from pr_review.sources.trailers import parse_trailers, trailer_values
from tests.gitrepo import GitRepo

CASES: list[tuple[str, str, tuple[tuple[str, str], ...]]] = [
    ("subject only", "Fix: the bug", ()),
    ("no trailers", "Subject\n\nJust a body.\n", ()),
    (
        "simple block",
        "Subject\n\nBody.\n\nSigned-off-by: A <a@x>\nReviewed-by: B <b@x>\n",
        (("Signed-off-by", "A <a@x>"), ("Reviewed-by", "B <b@x>")),
    ),
    (
        "keys as written, space before colon",
        "S\n\nco-authored-BY : Claude <c@x>\n",
        (("co-authored-BY", "Claude <c@x>"),),
    ),
    (
        "folded continuation",
        "S\n\nNote: first part\n  second part\nAck: yes\n",
        (("Note", "first part second part"), ("Ack", "yes")),
    ),
    ("only the last paragraph", "S\n\nKey: in body\n\nPlain closing words.\n", ()),
    (
        "mixed block without git trailer is not trailers",
        "S\n\nSome prose here\nKey: value\n",
        (),
    ),
    (
        "git-generated trailer allows 25% prose",
        "S\n\nprose line one\nprose line two\nprose line three\nSigned-off-by: A <a@x>\n",
        (("Signed-off-by", "A <a@x>"),),
    ),
    (
        "below 25% is not a block",
        "S\n\np1\np2\np3\np4\nSigned-off-by: A <a@x>\n",
        (),
    ),
    ("trailing blank lines", "S\n\nKey: v\n\n\n", (("Key", "v"),)),
    ("token with space is not a key", "S\n\nNot a key: v\n", ()),
    (
        "a url line is a trailer to git too",
        "S\n\nhttps://example.invalid/x\n",
        (("https", "//example.invalid/x"),),
    ),
]


@pytest.mark.parametrize(("message", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_trailers(message: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert parse_trailers(message) == expected


@pytest.mark.parametrize("message", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_agrees_with_git(git_repo: GitRepo, message: str) -> None:
    git_repo.run("config", "trailer.separators", ":")
    out = git_repo.run_bytes(
        "interpret-trailers", "--parse", "--no-divider", input_bytes=message.encode()
    )
    keys = [line.split(":", 1)[0] for line in out.stdout.decode().splitlines()]
    assert keys == [key for key, _ in parse_trailers(message)]


def test_values_by_key_ignore_case() -> None:
    trailers = parse_trailers("S\n\nCo-Authored-By: A\nco-authored-by: B\nOther: C\n")
    assert trailer_values(trailers, "co-authored-by") == ("A", "B")
