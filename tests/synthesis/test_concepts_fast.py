"""``concepts`` searches one alternation per concept: same answers as pattern by pattern."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pr_review.synthesis.text import CONCEPTS, concepts


def one_by_one(text: str) -> frozenset[str]:
    low = text.lower()
    return frozenset(c.term for c in CONCEPTS if any(re.compile(p).search(low) for p in c.patterns))


EXAMPLES = [e for c in CONCEPTS for e in c.examples]
WORDS = st.sampled_from(
    [*EXAMPLES, "sql", "token", "never", "expires", "race", "lock", "the", "password", "x"]
)


def test_every_concept_example_gives_the_same_answer() -> None:
    for text in [*EXAMPLES, "", "nothing to see here"]:
        assert concepts(text) == one_by_one(text)


@settings(max_examples=200)
@given(st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=12))
def test_any_text_gives_the_same_answer(parts: list[str]) -> None:
    text = " ".join(parts)
    assert concepts(text) == one_by_one(text)
