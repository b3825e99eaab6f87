"""read_local_pr's diff equals ``git diff --numstat main...HEAD`` file for file.

This is the contract ``pr-review pack --repo R --base main`` is checked against: paths,
insertions, deletions and change types of every touched file.
"""

from __future__ import annotations

from pr_review.sources.git import read_local_pr
from tests.gitrepo import GitRepo
from tests.sources.agreement import assert_agrees_with_git, assert_lines_match_trees


def module(name: str, functions: int) -> str:
    return "".join(
        f"def {name}_{i}(value):\n    '''Doc {i}.'''\n    return value * {i}\n\n"
        for i in range(functions)
    )


def build_varied_change(repo: GitRepo) -> None:
    """A base on main and a PR branch touching files in every way git distinguishes."""
    base_files: dict[str, str | bytes] = {
        "src/app/core.py": module("core", 40),
        "src/app/util.py": module("util", 25),
        "src/app/legacy.py": module("legacy", 30),
        "src/app/moved.py": module("moved", 20),
        "src/app/moved_edit.py": module("moved_edit", 20),
        "docs/guide with space.md": "# Guide\n\nText.\n",
        "scripts/run.sh": "#!/bin/sh\necho run\n",
        "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "win/config.ini": b"[a]\r\nx=1\r\ny=2\r\n",
        "data/latin1.txt": "na\xefve\n".encode("latin-1"),
        "tail.txt": "no newline at end",
        "unicode/ファイル.py": "X = 1\n",
    }
    for path, content in base_files.items():
        repo.write(path, content)
    repo.set_gitlink("vendor/dep", "a" * 40)
    repo.commit("base")
    repo.branch("feature")
    repo.write("src/app/core.py", module("core", 40).replace("* 7\n", "* 70\n") + "X = 1\n")
    repo.write("src/app/new_feature.py", module("feature", 12))
    repo.write("src/app/__init__.py", "")
    repo.rm("src/app/legacy.py")
    repo.mv("src/app/moved.py", "src/lib/moved.py")
    repo.mv("src/app/moved_edit.py", "src/lib/moved_edit.py")
    repo.write("src/lib/moved_edit.py", module("moved_edit", 20) + "EXTRA = 2\n")
    repo.write("docs/guide with space.md", "# Guide\n\nBetter text.\n")
    repo.chmod("scripts/run.sh")
    repo.write("assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01")
    repo.write("win/config.ini", b"[a]\r\nx=2\r\ny=2\r\nz=3\r\n")
    repo.write("data/latin1.txt", "na\xefve caf\xe9\n".encode("latin-1"))
    repo.write("tail.txt", "no newline at end, changed")
    repo.write("unicode/ファイル.py", "X = 2\n")
    repo.set_gitlink("vendor/dep", "b" * 40)
    repo.commit("feature work")
    repo.write("src/app/util.py", module("util", 26))
    repo.commit("more work")
    # main moves on after the branch point: none of this belongs to the PR.
    repo.checkout("main")
    repo.write("src/app/util.py", "# rewritten on main\n")
    repo.write("main_only.py", "M = 1\n")
    repo.commit("main moves on")
    repo.checkout("feature")


def test_read_local_pr_matches_numstat_and_name_status(git_repo: GitRepo) -> None:
    build_varied_change(git_repo)
    pr = read_local_pr(git_repo.path, "main", title=None, body="")
    assert_agrees_with_git(pr.diff, git_repo, "main", "HEAD")
    assert_lines_match_trees(pr.diff, git_repo, "main", "HEAD")
    numstat = git_repo.numstat("main", "HEAD")
    assert len(pr.diff.files) == len(numstat) >= 14
    assert pr.diff.insertions == sum(ins or 0 for ins, _ in numstat.values())
    assert pr.diff.deletions == sum(dels or 0 for _, dels in numstat.values())
    assert "main_only.py" not in {f.path for f in pr.diff.files}
