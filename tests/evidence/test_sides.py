"""Counting constructs across the PR's code files: the first one whose count moved."""

from __future__ import annotations

from dataclasses import dataclass

from pr_review.evidence.sides import CodeSides, first_moved


@dataclass(frozen=True)
class Item:
    line: int
    code: str


def _side(path: str, old: list[Item], new: list[Item]) -> CodeSides[Item]:
    return CodeSides(path, path, None, None, old, new)


def test_an_added_construct_is_named_before_a_removed_one_in_the_first_file_that_moved() -> None:
    sides = [
        _side("a.py", [Item(3, "x")], [Item(3, "x")]),
        _side("b.py", [Item(4, "gone")], [Item(9, "came"), Item(12, "came")]),
    ]
    moved = first_moved(sides, lambda i: i.code)
    assert moved is not None
    assert (moved.path, moved.item, moved.added, moved.came, moved.gone) == (
        "b.py", Item(9, "came"), True, 2, 1
    )
    assert (moved.verb, moved.where) == ("added", "line 9")


def test_a_removed_construct_says_it_was_on_the_base_side() -> None:
    moved = first_moved([_side("a.go", [Item(7, "k")], [])], lambda i: i.code)
    assert moved is not None
    assert (moved.verb, moved.where, moved.came, moved.gone) == (
        "removed", "line 7 of the base file", 0, 1
    )


def test_a_construct_moved_between_files_is_no_change() -> None:
    sides = [_side("a.js", [Item(1, "k")], []), _side("b.js", [], [Item(5, "k")])]
    assert first_moved(sides, lambda i: i.code) is None
