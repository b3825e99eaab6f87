"""The GitHub gateway and PR source against the fake server, through real PyGithub."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pr_review.action_config import load_base_config
from pr_review.errors import GitHubError
from pr_review.sources.diff import FileStatus
from pr_review.sources.github import GitHubApi, GitHubSettings, connect
from pr_review.sources.github_pr import read_github_pr
from tests.action.scenario import Scenario
from tests.fakes.github_server import FakeGitHub

CHANGES = {
    "auth/session.py": (
        "import hmac\n\ndef check(token):\n    return hmac.compare_digest(token, 'ok')\n"
    )
}


def test_reads_the_pr_with_commits_trailers_issues_and_base_tree(
    api: GitHubApi, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    pr, source = read_github_pr(api, api.pull(s.number), workspace=None)
    assert source.kind == "api"
    assert [f.path for f in pr.diff.files] == ["auth/session.py"]
    assert pr.commits[0].trailers == (("Co-authored-by", "Bob <bob@x.invalid>"),)
    assert [(i.number, i.title) for i in pr.issues] == [(3, "Session check is weak")]
    assert pr.base_tree.read(".github/CODEOWNERS") == "auth/ @octo/security\n"
    assert pr.base_tree.read("missing.txt") is None
    assert "auth/session.py" in pr.head_tree.paths()
    assert (pr.head_sha, pr.base_sha, pr.author, pr.is_fork) == (
        s.head_sha,
        s.base_sha,
        "alice",
        False,
    )


def test_pagination_follows_link_headers_on_the_servers_own_host(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    for i in range(130):
        gh.add_comment(s.number, f"comment {i}", "someone")
    assert [c.body for c in api.comments(s.number)][-1] == "comment 129"
    pages = [p for m, p in gh.requests if p.endswith(f"/issues/{s.number}/comments")]
    assert len(pages) == 2


def test_406_falls_back_to_local_git_when_the_checkout_has_both_commits(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    pull = api.pull(s.number)
    gh.fail(
        "GET",
        rf"/pulls/{s.number}$",
        406,
        message="Sorry, the diff exceeded the maximum number of files (300).",
    )
    gh.pulls[s.number].diff = "not used"
    pr, source = read_github_pr(api, pull, workspace=s.repo.path)
    assert source.kind == "git"
    assert [f.path for f in pr.diff.files] == ["auth/session.py"]
    assert pr.diff.files[0].added_line_numbers == (1, 2, 4)
    assert ("GET", f"/repos/octo/demo/pulls/{s.number}/files") not in gh.requests


def test_406_without_the_commits_uses_the_files_api_and_marks_patchless_files(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario({**CHANGES, "logo.png": "binary-ish"})
    for f in gh.pulls[s.number].files:
        if f["filename"] == "logo.png":
            f["patch"] = None
    pull = api.pull(s.number)
    gh.fail(
        "GET",
        rf"/pulls/{s.number}$",
        406,
        message="Sorry, the diff exceeded the maximum number of lines (20000)",
    )
    pr, source = read_github_pr(api, pull, workspace=None)
    assert source.kind == "files"
    assert "files API" in source.note
    by_path = {f.path: f for f in pr.diff.files}
    assert by_path["logo.png"].patch_available is False
    assert by_path["logo.png"].status is FileStatus.ADDED
    assert by_path["auth/session.py"].patch_available is True
    assert by_path["auth/session.py"].added_line_numbers == (1, 2, 4)
    assert any("logo.png" in p for p in pr.diff.problems)


def test_a_502_then_200_is_retried(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    gh.fail("GET", rf"/pulls/{s.number}$", 502, times=1)
    assert api.pull(s.number).head.sha == s.head_sha
    assert gh.requests.count(("GET", f"/repos/octo/demo/pulls/{s.number}")) == 2


def test_a_429_rate_limit_is_retried(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    gh.fail("GET", rf"/pulls/{s.number}$", 429, times=1, headers={"Retry-After": "0"})
    assert api.pull(s.number).number == s.number


def test_a_failed_post_is_looked_up_before_it_is_retried(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario(CHANGES)
    gh.fail("POST", rf"/issues/{s.number}/comments$", 502, times=1)
    calls = []

    def find() -> object:
        calls.append("find")
        return next((c for c in api.comments(s.number) if c.body == "hello"), None)

    made = api.create_once(find, lambda: api.create_comment(s.number, "hello"))
    assert made is not None
    assert [c["body"] for c in gh.comments] == ["hello"]
    assert calls == ["find", "find"]


def test_refusals_carry_the_status(api: GitHubApi, gh: FakeGitHub) -> None:
    with pytest.raises(GitHubError) as err:
        api.pull(999)
    assert err.value.status == 404


def test_ghes_prefix_is_honoured(scenario: Callable[..., Scenario]) -> None:
    with FakeGitHub("octo/demo", prefix="/api/v3") as ghes:
        ghes.identity = "pr-bot"
        ghes_api = connect(GitHubSettings("t", ghes.base_url, backoff_factor=0), ghes.repository)
        assert ghes_api.identity() == "pr-bot"
        assert ghes.requests == [("GET", "/user")]


def test_identity_is_none_for_installation_tokens(api: GitHubApi) -> None:
    assert api.identity() is None


def test_base_config_and_verifiers_come_from_the_base_commit(
    api: GitHubApi, gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    s = scenario({".pr-review/config.yml": "risk: {}\n", ".pr-review/verifiers/weak.json": "{}"})
    gh.trees[s.base_sha][".pr-review/verifiers/strict.json"] = '{"instruction": "x"}'
    loaded = load_base_config(api, s.base_sha, ".pr-review/config.yml")
    assert loaded.config.risk.overrides[0].lane == "red"
    assert list(loaded.policy_files) == [".pr-review/verifiers/strict.json"]
    again = load_base_config(api, s.base_sha, ".pr-review/config.yml")
    assert again.digest == loaded.digest
