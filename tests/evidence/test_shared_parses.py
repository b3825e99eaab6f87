"""Parses shared within a pack: one parse per source and parser, nothing kept outside, a
budget on what is kept, and each thread with its own scope."""

from __future__ import annotations

import threading

from pr_review.evidence.grammars import parse as parse_tree
from pr_review.evidence.pyast import parse_python
from pr_review.evidence.shared_parses import counts, parsed, shared_parses
from tests.evidence.helpers import file_diff, lane_and_factors

SOURCE = "def f(n, limit):\n    if n > limit:\n        raise ValueError('too many')\n"


def test_outside_a_pack_every_call_parses_afresh() -> None:
    assert counts() is None
    assert parse_python(SOURCE) is not parse_python(SOURCE)


def test_inside_a_pack_a_source_is_parsed_once_per_parser() -> None:
    with shared_parses():
        first = parse_python(SOURCE)
        assert parse_python(SOURCE) is first
        assert parse_python(SOURCE, limit=10) is None  # another parser setting, parsed again
        js = "function f(n) { if (n > max) { throw new Error('x') } }\n"
        assert parse_tree("a.js", js) is not None
        assert parse_tree("b.js", js) is not None  # same source and grammar: shared root
        assert counts() == (2, 3)
    assert counts() is None


def test_past_the_budget_trees_are_not_kept() -> None:
    made: list[str] = []

    def parse(source: str) -> str:
        made.append(source)
        return source.upper()

    with shared_parses(budget_chars=5):
        assert parsed("p", "abc", lambda: parse("abc")) == "ABC"
        assert parsed("p", "defgh", lambda: parse("defgh")) == "DEFGH"  # 8 > 5: not kept
        parsed("p", "abc", lambda: parse("abc"))
        parsed("p", "defgh", lambda: parse("defgh"))
    assert made == ["abc", "defgh", "defgh"]


def test_a_thread_started_inside_a_pack_has_its_own_scope() -> None:
    seen: list[object] = []
    with shared_parses():
        mine = parse_python(SOURCE)
        worker = threading.Thread(target=lambda: seen.append((counts(), parse_python(SOURCE))))
        worker.start()
        worker.join()
    assert seen[0][0] is None  # type: ignore[index]
    assert seen[0][1] is not mine  # type: ignore[index]


def test_a_pack_reads_the_same_with_shared_trees() -> None:
    base = "def read(self, n):\n    return self.buf[:n]\n"
    head = ("def read(self, n):\n    if n > self.max_read_size:\n"
            "        raise PayloadTooLarge()\n    return self.buf[:n]\n")
    lane, factors = lane_and_factors(
        files=[file_diff("pkg/io.py", head.splitlines()[1:3], start=2)],
        base={"pkg/io.py": base}, head={"pkg/io.py": head},
    )  # fmt: skip
    assert "input-limit-changed:red" in factors, factors
    assert lane.value == "red"
