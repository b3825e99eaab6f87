from __future__ import annotations

import pytest

from pr_review.sources.model import MemoryTree
from pr_review.verifiers.mypy_commands import MYPY_COMMAND_EXAMPLES, mypy_commands


@pytest.mark.parametrize(
    ("files", "paths", "modules"), MYPY_COMMAND_EXAMPLES, ids=range(len(MYPY_COMMAND_EXAMPLES))
)
def test_mypy_command_examples(
    files: dict[str, str], paths: tuple[str, ...] | None, modules: tuple[str, ...]
) -> None:
    found = mypy_commands(MemoryTree(files))
    if paths is None:
        assert found is None
        return
    assert found is not None
    assert (found.paths, found.modules) == (paths, modules)


def test_a_mirrors_mypy_hook_keeps_its_files_pattern_and_says_where() -> None:
    found = mypy_commands(MemoryTree({
        ".pre-commit-config.yaml": "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n"
                                   "  hooks:\n  - id: mypy\n    files: ^src/\n",
        "src/a.py": "",
    }))  # fmt: skip
    assert found is not None
    assert [p.pattern for p in found.patterns] == ["^src/"]
    assert "files: ^src/" in found.describe()


def test_every_command_counts_and_one_unreadable_narrows_nothing() -> None:
    tree = {"Makefile": "t:\n\tmypy src\n", "noxfile.py": "def t(s):\n    s.run('mypy', 'tests')\n",
            "src/a.py": "", "tests/b.py": ""}  # fmt: skip
    found = mypy_commands(MemoryTree(tree))
    assert found is not None
    assert found.paths == ("src", "tests")
    tree["scripts/check"] = "#!/bin/sh\n${PREFIX}mypy $SOURCE_FILES\n"
    assert mypy_commands(MemoryTree(tree)) is None
