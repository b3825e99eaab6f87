"""The local git source against real repositories: range, commits, trees and user errors."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pr_review import process
from pr_review.errors import SourceError
from pr_review.process import ProcessResult
from pr_review.sources.diff import FileStatus
from pr_review.sources.git import DIFF_OPTIONS, GitTree, read_local_pr
from tests.gitrepo import GitRepo


def branched(repo: GitRepo) -> tuple[str, str]:
    """main with two files; branch pr changes one and adds one; then main moves on."""
    repo.write("app/core.py", "def core():\n    return 1\n")
    repo.write("README.md", "# demo\n")
    base = repo.commit("base")
    repo.branch("pr")
    repo.write("app/core.py", "def core():\n    return 2\n")
    repo.commit("Make core return two\n\nBecause two is better.\n")
    repo.write("app/new.py", "NEW = True\n")
    head = repo.commit(
        "Add new module\n\nBody text.\n\nSigned-off-by: Ada <ada@example.invalid>\n"
        "Co-authored-by: Claude <noreply@anthropic.com>\n"
    )
    repo.checkout("main")
    repo.write("README.md", "# demo, moved on\n")
    repo.write("main_only.py", "x = 1\n")
    repo.commit("main moves on")
    repo.checkout("pr")
    return base, head


def test_reads_the_range_like_github(git_repo: GitRepo) -> None:
    base, head = branched(git_repo)
    pr = read_local_pr(git_repo.path, "main", title=None, body="the body")
    assert (pr.base_sha, pr.head_sha, pr.base_ref, pr.head_ref) == (base, head, "main", "HEAD")
    # main's later changes are not part of the PR (merge base, like GitHub's three-dot diff).
    assert {f.path: f.status for f in pr.diff.files} == {
        "app/core.py": FileStatus.MODIFIED,
        "app/new.py": FileStatus.ADDED,
    }
    assert pr.title == "Add new module"
    assert pr.body == "the body"
    assert [c.message.split("\n")[0] for c in pr.commits] == [
        "Make core return two",
        "Add new module",
    ]
    assert pr.commits[-1].sha == head
    assert pr.commits[-1].trailers == (
        ("Signed-off-by", "Ada <ada@example.invalid>"),
        ("Co-authored-by", "Claude <noreply@anthropic.com>"),
    )
    assert pr.commits[0].trailers == ()
    assert (pr.commits[0].author_name, pr.commits[0].author_email) == (
        "Ada Author",
        "ada@example.invalid",
    )
    assert pr.commits[0].committer_name == "Cy Committer"
    assert pr.author == "Ada Author"


def test_explicit_title_and_head(git_repo: GitRepo) -> None:
    _, head = branched(git_repo)
    git_repo.checkout("main")
    pr = read_local_pr(git_repo.path, "main", "pr", title="Given title", body="")
    assert (pr.title, pr.head_sha, pr.head_ref) == ("Given title", head, "pr")


def test_empty_range_takes_title_from_head(git_repo: GitRepo) -> None:
    git_repo.write("a.txt", "a\n")
    git_repo.commit("Only commit")
    pr = read_local_pr(git_repo.path, "main", title=None, body="")
    assert (pr.title, pr.commits, pr.diff.files) == ("Only commit", (), ())


def test_trees_read_merge_base_and_head(git_repo: GitRepo) -> None:
    branched(git_repo)
    git_repo.set_gitlink("vendor/sub", "5" * 40)
    git_repo.commit("add a submodule entry", add_all=False)
    pr = read_local_pr(git_repo.path, "main", title=None, body="")
    assert pr.base_tree.paths() == {"app/core.py", "README.md"}
    assert pr.head_tree.paths() == {"app/core.py", "app/new.py", "README.md"}
    assert pr.base_tree.read("app/core.py") == "def core():\n    return 1\n"
    assert pr.head_tree.read("app/core.py") == "def core():\n    return 2\n"
    assert pr.base_tree.read("README.md") == "# demo\n"  # the merge base, not main's tip
    assert pr.base_tree.read("app/new.py") is None
    assert pr.head_tree.read("vendor/sub") is None
    assert pr.head_tree.read("app") is None


def test_trees_decode_with_replacement_and_cache(git_repo: GitRepo) -> None:
    git_repo.write("bytes.txt", b"caf\xe9\n")
    git_repo.commit("base")
    calls: list[tuple[str, ...]] = []

    def recording(argv: Sequence[str], **kwargs: Any) -> ProcessResult:
        calls.append(tuple(argv))
        return process.run(argv, **kwargs)

    pr = read_local_pr(git_repo.path, "main", title=None, body="", run=recording)
    before = len(calls)
    assert pr.head_tree.read("bytes.txt") == "caf\ufffd\n"
    assert pr.head_tree.read("bytes.txt") == "caf\ufffd\n"
    assert len(calls) == before + 2  # one ls-tree, one cat-file; the second read is cached


def test_every_git_call_goes_through_the_runner_with_pinned_options(git_repo: GitRepo) -> None:
    branched(git_repo)
    calls: list[tuple[tuple[str, ...], dict[str, Any]]] = []

    def recording(argv: Sequence[str], **kwargs: Any) -> ProcessResult:
        calls.append((tuple(argv), kwargs))
        return process.run(argv, **kwargs)

    pr = read_local_pr(git_repo.path, "main", title=None, body="", run=recording)
    pr.head_tree.read("app/new.py")
    assert calls
    for argv, kwargs in calls:
        assert argv[:3] == ("git", "-c", "core.quotePath=false")
        assert kwargs["timeout_s"] > 0
        assert kwargs["cwd"] == git_repo.path
    diffs = [argv for argv, _ in calls if "diff" in argv]
    assert len(diffs) == 1
    assert set(DIFF_OPTIONS) <= set(diffs[0])
    assert {"--no-ext-diff", "--no-textconv", "--no-color", "-M"} <= set(DIFF_OPTIONS)


def test_user_config_cannot_change_the_diff(git_repo: GitRepo) -> None:
    git_repo.write("a b.py", "x = 1\n")
    git_repo.commit("base")
    git_repo.branch("pr")
    git_repo.mv("a b.py", "c d.py")
    git_repo.write("c d.py", "x = 1\ny = 2\n")
    git_repo.commit("rename")
    for key, value in [
        ("diff.noprefix", "true"),
        ("diff.mnemonicPrefix", "true"),
        ("diff.renames", "false"),
        ("color.ui", "always"),
        ("diff.external", "false"),
    ]:
        git_repo.run("config", key, value)
    pr = read_local_pr(git_repo.path, "main", title=None, body="")
    (fd,) = pr.diff.files
    assert (fd.path, fd.old_path, fd.status, fd.insertions) == (
        "c d.py",
        "a b.py",
        FileStatus.RENAMED,
        1,
    )


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="is not a directory"):
        read_local_pr(tmp_path / "missing", "main", title=None, body="")


def test_not_a_git_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Stop git from finding a repository above the temp dir.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    with pytest.raises(SourceError, match="not a git repository") as info:
        read_local_pr(tmp_path, "main", title=None, body="")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("which", ["base", "head"])
def test_unknown_ref_is_named(git_repo: GitRepo, which: str) -> None:
    git_repo.write("a", "a\n")
    git_repo.commit("base")
    refs = {"base": "main", "head": "HEAD", which: "no-such-branch"}
    with pytest.raises(SourceError, match="unknown git ref 'no-such-branch'") as info:
        read_local_pr(git_repo.path, refs["base"], refs["head"], title=None, body="")
    assert "\n" not in str(info.value)


def test_option_shaped_ref_is_only_a_name(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("a", "a\n")
    git_repo.commit("base")
    target = tmp_path / "written"
    with pytest.raises(SourceError, match="unknown git ref"):
        read_local_pr(git_repo.path, f"--output={target}", title=None, body="")
    assert not target.exists()


def test_unrelated_histories(git_repo: GitRepo) -> None:
    git_repo.write("a", "a\n")
    git_repo.commit("base")
    git_repo.run("checkout", "-q", "--orphan", "island")
    git_repo.write("b", "b\n")
    git_repo.commit("elsewhere")
    with pytest.raises(SourceError, match="no common ancestor"):
        read_local_pr(git_repo.path, "main", "island", title=None, body="")


def test_git_missing(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("a", "a\n")
    git_repo.commit("base")
    empty = tmp_path / "empty-bin"
    empty.mkdir()

    def no_git_on_path(argv: Sequence[str], **kwargs: Any) -> ProcessResult:
        return process.run(argv, **kwargs, env={"PATH": str(empty)})

    with pytest.raises(SourceError, match="install git"):
        read_local_pr(git_repo.path, "main", title=None, body="", run=no_git_on_path)


def test_touched_files_are_read_in_one_batch(git_repo: GitRepo) -> None:
    git_repo.write("untouched.txt", "same\n")
    for i in range(1, 6):
        git_repo.write(f"m{i}.py", f"x = {i}\n")
    git_repo.commit("base")
    git_repo.branch("pr")
    for i in range(1, 6):
        git_repo.write(f"m{i}.py", f"x = {i * 10}\n")
    git_repo.write("with space.py", "s = 1\n")
    git_repo.commit("change")
    calls: list[tuple[str, ...]] = []

    def recording(argv: Sequence[str], **kwargs: Any) -> ProcessResult:
        calls.append(tuple(argv))
        return process.run(argv, **kwargs)

    pr = read_local_pr(git_repo.path, "main", title=None, body="", run=recording)
    calls.clear()
    assert [pr.head_tree.read(f"m{i}.py") for i in range(1, 6)] == [
        f"x = {i * 10}\n" for i in range(1, 6)
    ]
    assert pr.head_tree.read("with space.py") == "s = 1\n"
    # One listing, then every touched file of the head in a single cat-file.
    assert [c[3:5] for c in calls] == [("ls-tree", "-r"), ("cat-file", "--batch")]
    assert pr.head_tree.read("untouched.txt") == "same\n"
    assert pr.head_tree.read("nope.txt") is None
    assert pr.base_tree.read("with space.py") is None
    assert pr.base_tree.read("m3.py") == "x = 3\n"
    assert pr.base_tree.read("m4.py") == "x = 4\n"
    assert len([c for c in calls if "cat-file" in c]) == 3


def test_read_many_loads_in_one_process(git_repo: GitRepo) -> None:
    for i in range(4):
        git_repo.write(f"d/f{i}.txt", f"{i}\n")
    git_repo.commit("base")
    calls: list[tuple[str, ...]] = []

    def recording(argv: Sequence[str], **kwargs: Any) -> ProcessResult:
        calls.append(tuple(argv))
        return process.run(argv, **kwargs)

    pr = read_local_pr(git_repo.path, "main", title=None, body="", run=recording)
    tree = pr.head_tree
    assert isinstance(tree, GitTree)
    calls.clear()
    wanted = ["d/f0.txt", "d/f3.txt", "missing.txt", "d/f1.txt"]
    assert tree.read_many(wanted) == {
        "d/f0.txt": "0\n",
        "d/f3.txt": "3\n",
        "missing.txt": None,
        "d/f1.txt": "1\n",
    }
    assert tree.read("d/f3.txt") == "3\n"
    assert tree.read_many([]) == {}
    assert [c[3] for c in calls] == ["ls-tree", "cat-file"]
