"""A Cython file whose code tokens stay the same once comments and docstrings are set aside is
behaviour-neutral (no syntax tree for Cython here: Python's tokenizer reads it)."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import Lane
from tests.evidence.helpers import file_diff, lane_and_factors

_BASE = (
    "cdef class XMLParser(_FeedParser):\n"
    '    u"""XMLParser(self, encoding=None, recover=False, resolve_entities=True)\n\n'
    "    The XML parser.\n"
    '    """\n'
    "    def __init__(self, *, encoding=None, bint recover=False):\n"
    "        cdef int parse_options = _XML_DEFAULT_PARSE_OPTIONS  # the defaults\n"
    "        if recover:\n"
    "            parse_options = parse_options | xmlparser.XML_PARSE_RECOVER\n"
)


@pytest.mark.parametrize(
    ("head", "neutral"),
    [
        # lxml's docstring gaining a keyword it accepted (holdout66), a comment reworded
        (_BASE.replace("recover=False, resolve", "recover=False, huge_tree=False, resolve"), True),
        (_BASE.replace("# the defaults", "# libxml2's defaults"), True),
        (_BASE.replace("parser.\n", "parser.\n\n    See the docs.\n"), True),
        (_BASE.replace("bint recover=False", "bint recover=True"), False),
        (_BASE.replace("parse_options | xml", "parse_options & xml"), False),
        # a compiler directive is a comment that changes what Cython builds (pyyaml's)
        ("# cython: freethreading_compatible = True\n" + _BASE, False),
    ],
)
def test_a_cython_docstring_or_comment_change_is_neutral(head: str, neutral: bool) -> None:
    lane, factors = lane_and_factors(
        files=[file_diff("src/lxml/parser.pxi", head.splitlines(), _BASE.splitlines())],
        base={"src/lxml/parser.pxi": _BASE},
        head={"src/lxml/parser.pxi": head},
    )
    assert ("logic-change:moderate" in factors) is not neutral
    assert (lane is Lane.GREEN) is neutral
