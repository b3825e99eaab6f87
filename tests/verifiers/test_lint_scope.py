"""The repository's own lint scope (pre-commit, flake8), read as data, decides which touched
Python files the ruff verifier reads when the repository has no ruff configuration."""

from __future__ import annotations

import pytest

from pr_review.sources.model import MemoryTree
from pr_review.verifiers.lint_scope import LINT_SCOPE_EXAMPLES, PRE_COMMIT, lint_scope


@pytest.mark.parametrize(
    ("name", "text", "path", "out"), LINT_SCOPE_EXAMPLES, ids=range(len(LINT_SCOPE_EXAMPLES))
)
def test_lint_scope_examples(name: str, text: str, path: str, out: bool) -> None:
    scope = lint_scope(MemoryTree({name: text}), ruff_configured=False)
    assert scope.problems == ()
    assert (scope.why_out(path) is not None) is out


def test_the_reason_names_the_file_and_the_pattern() -> None:
    scope = lint_scope(MemoryTree({PRE_COMMIT: "exclude: ^tests/data/\n"}), ruff_configured=False)
    assert scope.why_out("tests/data/x.py") == f"excluded by {PRE_COMMIT} (`exclude: ^tests/data/`)"
    flake8 = lint_scope(MemoryTree({".flake8": "[flake8]\nexclude = build\n"}), False)
    assert flake8.why_out("build/a.py") == "excluded by flake8 in .flake8 (`build`)"


def test_flake8_settings_give_way_to_the_repositorys_ruff_configuration() -> None:
    tree = MemoryTree({".flake8": "[flake8]\nexclude = tests\n"})
    assert lint_scope(tree, ruff_configured=False).why_out("tests/t.py") is not None
    assert lint_scope(tree, ruff_configured=True).why_out("tests/t.py") is None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (PRE_COMMIT, "exclude: '(unclosed'\n"),
        (PRE_COMMIT, "exclude: [not, a, pattern]\n"),
        (PRE_COMMIT, "exclude: " + "a" * 1001 + "\n"),
        (PRE_COMMIT, "repos: [\n"),
        (".flake8", "no section header\n"),
    ],
)
def test_a_broken_setting_is_unused_and_said_so(name: str, text: str) -> None:
    scope = lint_scope(MemoryTree({name: text}), ruff_configured=False)
    assert scope.why_out("tests/data/x.py") is None
    assert len(scope.problems) == 1
    assert name in scope.problems[0]


def test_odd_shapes_are_no_scope() -> None:
    for text in ("[]\n", "repos: 3\n", "repos:\n  - 3\n  - hooks: x\n", "repos:\n  - hooks: [3]\n"):
        scope = lint_scope(MemoryTree({PRE_COMMIT: text}), ruff_configured=False)
        assert scope.why_out("a.py") is None
        assert scope.problems == ()
