"""Trigger words found in one pass (evidence/triggers.py), and the scans built on it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pr_review.evidence.budgeted import scan_all_budgeted
from pr_review.evidence.content import scan_all
from pr_review.evidence.triggers import lines_holding

from .helpers import file_diff

# Small alphabets so words overlap, repeat on a line, and share prefixes and suffixes.
_WORD = st.text(alphabet="abk-", min_size=1, max_size=4)
_TEXT = st.text(alphabet="abk-\nİ", max_size=80)


def _reference(text: str, words: list[str], cap: int | None) -> dict[str, list[int]]:
    """The obvious version: each word, each line, in order."""
    found: dict[str, list[int]] = {}
    for word in set(words):
        lines = [i for i, line in enumerate(text.split("\n")) if word in line]
        if lines:
            found[word] = lines[:cap] if cap is not None else lines
    return found


@given(_TEXT, st.lists(_WORD, min_size=1, max_size=6), st.sampled_from([None, 1, 2, 3]))
def test_lines_match_a_line_by_line_search(text: str, words: list[str], cap: int | None) -> None:
    assert lines_holding(text, frozenset(words), cap) == _reference(text, words, cap)


def test_no_words_or_no_text_finds_nothing() -> None:
    assert lines_holding("", frozenset({"key"})) == {}
    assert lines_holding("key\nkey", frozenset()) == {}
    assert lines_holding("key\nkey", frozenset({""})) == {}


def test_a_word_on_every_line_is_capped_but_a_rare_one_further_down_is_found() -> None:
    text = "\n".join(["key = 1"] * 500 + ["x = 'akia'"])
    found = lines_holding(text, frozenset({"key", "akia"}), cap=3)
    assert found == {"key": [0, 1, 2], "akia": [500]}


SECRET = 'AWS_KEY_ID = "AKIAZ3MXQ7P2LRT5VW4N"'


def test_dotted_capital_i_cannot_hide_a_secret_from_either_scan() -> None:
    """``"İ".lower()`` is two characters: offsets in lower-cased text drift from the
    original's, so a scan that mapped them back by offset looked at the wrong line."""
    lines = ["İ" * 400 + " " + SECRET, *(f"value_{i} = {i}" for i in range(40))]
    files = [file_diff("src/app/settings.py", lines, start=1)]
    code = frozenset({"src/app/settings.py"})
    for scans in (scan_all(files, code), scan_all_budgeted(files, code)):
        hits = scans["src/app/settings.py"].added.get("secrets", [])
        assert [h.line for h in hits] == [1]
