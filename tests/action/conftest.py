"""Fixtures: a fake GitHub server and PR scenarios built with real git."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pr_review.sources.github import GitHubApi, GitHubSettings, connect
from tests.action.scenario import Scenario, make_scenario
from tests.fakes.github_server import FakeGitHub
from tests.gitrepo import GitRepo


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    """A running fake GitHub for ``octo/demo``."""
    with FakeGitHub("octo/demo") as server:
        yield server


@pytest.fixture
def api(gh: FakeGitHub) -> GitHubApi:
    """The real gateway (real PyGithub) pointed at the fake, with instant retries."""
    settings = GitHubSettings("ghs_fake", gh.base_url, backoff_factor=0, timeout_s=10)
    gateway = connect(settings, gh.repository)
    return GitHubApi(gateway._client, gh.repository, sleep=lambda _: None)


@pytest.fixture
def scenario(gh: FakeGitHub, git_repo: GitRepo, tmp_path: Path) -> Callable[..., Scenario]:
    """``scenario({"path": "text"}, author=...)``: a PR changing those files."""

    def make(changes: dict[str, str], **kwargs: object) -> Scenario:
        return make_scenario(gh, git_repo, tmp_path, changes, **kwargs)  # type: ignore[arg-type]

    return make
