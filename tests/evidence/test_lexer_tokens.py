"""``token`` in a parser is a piece of lexed input, not a credential (any language)."""

from __future__ import annotations

import pytest

from pr_review.evidence.lexer_tokens import LEXER_TOKEN_EXAMPLES, holds_lexer_tokens
from pr_review.evidence.security_scope import CHECK_FACTOR
from pr_review.schema.enums import Lane
from tests.evidence.helpers import file_diff, lane_and_factors


@pytest.mark.parametrize(
    ("path", "source", "lexer"), LEXER_TOKEN_EXAMPLES, ids=range(len(LEXER_TOKEN_EXAMPLES))
)
def test_examples(path: str, source: str, lexer: bool) -> None:
    assert holds_lexer_tokens(path, source) is lexer


def test_unreadable_sources_keep_the_word() -> None:
    assert holds_lexer_tokens("a.ts", None) is False
    assert holds_lexer_tokens("a.py", "def (:\n  token.type == 1\n") is False
    assert holds_lexer_tokens("a.rb", "token.type == 1\n") is False


_LEXER_BASE = (
    "function stringifyTokens(tokens) {\n"
    "  let out = '';\n"
    "  for (const token of tokens) {\n"
    "    if (token.type === 'text') out += token.value;\n"
    "  }\n"
    "  return out;\n"
    "}\n"
)
_LEXER_HEAD = _LEXER_BASE.replace(
    "    if (token.type === 'text') out += token.value;\n",
    "    if (token.type === 'text') out += token.value;\n    if (!token.value) continue;\n",
)


def _lane(path: str, base: str, head: str) -> tuple[Lane, dict[str, object]]:
    old, new = base.splitlines(), head.splitlines()
    added = [(i + 1, line) for i, line in enumerate(new) if line not in old]
    diff = file_diff(path, [text for _, text in added], [], start=added[0][0])
    return lane_and_factors(files=[diff], base={path: base}, head={path: head})


def test_a_lexers_token_function_changing_a_decision_is_not_red() -> None:
    lane, factors = _lane("src/index.js", _LEXER_BASE, _LEXER_HEAD)
    assert f"{CHECK_FACTOR}:red" not in factors
    assert lane is not Lane.RED


def test_a_credential_token_function_changing_a_decision_stays_red() -> None:
    base = _LEXER_BASE.replace("token.type === 'text'", "token.length > 0")
    head = _LEXER_HEAD.replace("token.type === 'text'", "token.length > 0")
    lane, factors = _lane("src/index.js", base, head)
    assert f"{CHECK_FACTOR}:red" in factors
    assert lane is Lane.RED


def test_other_security_words_still_count_in_a_lexer() -> None:
    base = _LEXER_BASE.replace("stringifyTokens", "verifyCsrfTokens")
    head = _LEXER_HEAD.replace("stringifyTokens", "verifyCsrfTokens")
    lane, factors = _lane("src/index.js", base, head)
    assert f"{CHECK_FACTOR}:red" in factors
    assert lane is Lane.RED
