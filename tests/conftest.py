"""Shared fixtures: real git repositories in temp dirs (see ``tests/gitrepo.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo


@pytest.fixture
def make_git_repo(tmp_path: Path) -> Callable[[str], GitRepo]:
    """Factory: ``make_git_repo("name")`` creates an empty repository (branch main) in tmp_path."""

    def make(name: str = "repo") -> GitRepo:
        return GitRepo.init(tmp_path / name)

    return make


@pytest.fixture
def git_repo(make_git_repo: Callable[[str], GitRepo]) -> GitRepo:
    """An empty repository on branch main with a deterministic identity and dates."""
    return make_git_repo("repo")
