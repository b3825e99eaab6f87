"""The mypy version a repository pins, and whether ours checks the same way."""

from __future__ import annotations

import pytest

from pr_review.sources.model import MemoryTree
from pr_review.verifiers.mypy_version import PIN_EXAMPLES, Pin, pinned_mypy, read_pin, skew


@pytest.mark.parametrize(("path", "text", "expected"), PIN_EXAMPLES)
def test_pin_examples(path: str, text: str, expected: str | None) -> None:
    pin = read_pin(path, text)
    assert (pin.text() if pin else None) == expected


@pytest.mark.parametrize(
    ("pin", "ours", "skewed"),
    [
        (Pin((1, 16, 0), True, "requirements.txt"), (2, 4, 1), True),  # starlette, werkzeug
        (Pin((2, 4, 0), True, "requirements.txt"), (2, 4, 1), False),
        (Pin((2, 3, 0), True, "uv.lock"), (2, 4, 1), True),
        (Pin((2, 1), False, "pyproject.toml"), (2, 4, 1), False),  # ^2.1 allows 2.4
        (Pin((1, 8), False, "pyproject.toml"), (2, 4, 1), True),
    ],
)
def test_skew(pin: Pin, ours: tuple[int, ...], skewed: bool) -> None:
    assert skew(pin, ours) is skewed


def test_a_lock_file_wins_over_a_requirements_floor_and_unrelated_files_are_not_read() -> None:
    tree = MemoryTree({
        "requirements.txt": "mypy>=1.0\n",
        "uv.lock": '[[package]]\nname = "mypy"\nversion = "1.14.1"\n',
        "docs/requirements.txt": "mypy==0.9\n",
        "src/app/requirements.py": "mypy==0.1\n",
    })  # fmt: skip
    pin = pinned_mypy(tree)
    assert pin is not None
    assert (pin.text(), pin.where) == ("1.14.1", "uv.lock")
    assert pinned_mypy(MemoryTree({"requirements.txt": "ruff==0.5\n"})) is None
