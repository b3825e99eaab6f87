"""Text hygiene: shortening at sentence or word boundaries, no doubled punctuation."""

from __future__ import annotations

import pytest

from pr_review.packet.neutralize import clip, end_sentence


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short enough", 40, "short enough"),
        ("The key is logged. Then it is sent to the client as is.", 30, "The key is logged."),
        ("Possible SQL injection through string query", 30, "Possible SQL injection…"),
        ("one, two, three, four, five, six", 18, "one, two, three…"),
        ("Supercalifragilisticexpialidocious", 10, "Supercali…"),
    ],
)  # fmt: skip
def test_clip_cuts_at_sentence_or_word_boundaries(text: str, limit: int, expected: str) -> None:
    got = clip(text, limit)
    assert got == expected
    assert len(got) <= limit


@pytest.mark.parametrize("limit", range(5, 80, 3))
def test_clip_never_cuts_mid_word_nor_doubles_punctuation(limit: int) -> None:
    text = "Webhook HMAC compared with ==, not a constant-time comparison. Use hmac.compare_digest."
    got = clip(text, limit)
    words = set(text.replace(".", " ").replace(",", " ").split())
    body = got.removesuffix("…")
    assert all(w.strip(".,") in words or w in text for w in body.split())
    assert ",…" not in got
    assert "..…" not in got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Is the key rotated?", "Is the key rotated?"),
        ("It leaks.", "It leaks."),
        ("It leaks", "It leaks."),
        ("Cut here…", "Cut here…"),
    ],
)
def test_end_sentence_adds_one_mark_at_most(text: str, expected: str) -> None:
    assert end_sentence(text) == expected
