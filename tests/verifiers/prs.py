"""Pull requests made from real git repositories in temp dirs, for the verifier tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pr_review.sources.git import read_local_pr
from pr_review.sources.model import PullRequest
from tests.gitrepo import GitRepo


def make_pr(
    root: Path, base: Mapping[str, str], head: Mapping[str, str | None]
) -> PullRequest:
    """Commit ``base`` on main, apply ``head`` (None deletes) on a branch, read the PR."""
    repo = GitRepo.init(root)
    for path, text in base.items():
        repo.write(path, text)
    repo.commit("base")
    repo.branch("feature")
    for path, change in head.items():
        if change is None:
            repo.rm(path)
        else:
            repo.write(path, change)
    repo.commit("change")
    return read_local_pr(repo.path, "main", "feature", title=None, body="")
