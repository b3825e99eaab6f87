"""Splitting one side's files across processes: balanced by size, order kept, small stays whole."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pytest

from pr_review.verifiers import sides
from pr_review.verifiers.model import RawFinding
from pr_review.verifiers.parsers import parse_ruff
from pr_review.verifiers.sides import ByLine, Side, shards_for, usable_cores


def _side(tmp_path: Path, sizes: dict[str, int]) -> Side:
    for name, size in sizes.items():
        (tmp_path / name).write_bytes(b"x" * size)
    return Side(tmp_path, tuple(sizes), "head")


def test_small_sides_are_run_whole(tmp_path: Path) -> None:
    side = _side(tmp_path, {"a.py": 10, "b.py": 10})
    assert shards_for(side, 4) == [side]


def test_parts_are_balanced_by_bytes_and_keep_the_sides_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sides, "SHARD_MIN_BYTES", 100)
    side = _side(tmp_path, {"a.py": 400, "b.py": 100, "c.py": 300, "d.py": 200, "e.py": 50})
    parts = shards_for(side, 2)
    assert [p.files for p in parts] == [("a.py", "b.py", "e.py"), ("c.py", "d.py")]
    assert [p.shard for p in parts] == [1, 2]
    assert {p.output_for("bandit", tmp_path).name for p in parts} == {
        "bandit-head-1.out",
        "bandit-head-2.out",
    }
    assert side.output_for("bandit", tmp_path).name == "bandit-head.out"


def test_never_more_parts_than_the_limit_files_or_size_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sides, "SHARD_MIN_BYTES", 100)
    three = _side(tmp_path, {"a.py": 150, "b.py": 150, "c.py": 150})
    assert len(shards_for(three, 8)) == 3  # by files: 450 bytes would hold four parts
    assert len(shards_for(three, 2)) == 2  # by the limit
    two_parts_of_bytes = _side(tmp_path, {"d.py": 90, "e.py": 90, "f.py": 90})
    assert len(shards_for(two_parts_of_bytes, 8)) == 2  # by size: 270 bytes
    assert usable_cores() >= 1


def test_a_line_report_is_read_from_the_open_file_line_by_line(tmp_path: Path) -> None:
    """ruff's json-lines report is streamed: the parser gets the open file, not its text."""
    seen: list[object] = []

    def parse(lines: Iterable[str], root: Path) -> tuple[RawFinding, ...]:
        seen.append(lines)
        return parse_ruff(lines, root)

    report = tmp_path / "ruff-head.out"
    item = '{"code": "F821", "message": "undefined", "filename": "a.py", "location": {"row": 3}}'
    report.write_text(f"{item}\n{item}\n", encoding="utf-8")
    found = sides._read_report(ByLine(parse), report, lambda: "", tmp_path)
    assert [(f.path, f.line, f.rule_id) for f in found] == [("a.py", 3, "F821")] * 2
    assert isinstance(seen[0], io.TextIOBase)
    # No report file: the tool printed to stdout instead.
    report.unlink()
    found = sides._read_report(ByLine(parse), report, lambda: item, tmp_path)
    assert [f.rule_id for f in found] == ["F821"]
