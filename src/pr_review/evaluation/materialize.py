"""Turn a corpus case into a real git repository: a base commit, then the PR's commits.

The base tree is committed on branch ``base``; the diff is applied with ``git apply`` and
committed with the case's first commit message and author on branch ``pr``; further commit
messages become empty commits (their messages still matter: authorship is read from them).
Identity, dates and git configuration are fixed so every run builds the same shas.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pr_review.errors import UserError
from pr_review.evaluation.corpus import Case
from pr_review.process import run

BASE_REF = "base"
HEAD_REF = "pr"

_AUTHOR = re.compile(r"^\s*(?P<name>[^<]+?)\s*<(?P<email>[^>]*)>\s*$")
_GIT_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class MaterializedCase:
    """A case's git repository and the refs to review."""

    repo: Path
    base: str
    head: str


Materializer = Callable[[Case, Path], MaterializedCase]
"""``(case, dest) -> MaterializedCase``; ``dest`` must not exist yet."""


def materialize(case: Case, dest: Path) -> MaterializedCase:
    """Build the case's repository at ``dest`` (created; must not exist)."""
    shutil.copytree(case.base_dir, dest)
    _git(dest, "-c", "init.defaultBranch=" + BASE_REF, "init", "-q")
    _git(dest, "add", "-A")
    _commit(dest, "base", "Corpus Base <base@example.invalid>", allow_empty=True)
    _git(dest, "checkout", "-q", "-b", HEAD_REF)
    _git(dest, "apply", "--whitespace=nowarn", str(case.diff_path.resolve()))
    _git(dest, "add", "-A")
    first, *rest = case.spec.commits
    _commit(dest, first.message, first.author, allow_empty=True)
    for commit in rest:
        _commit(dest, commit.message, commit.author, allow_empty=True)
    return MaterializedCase(repo=dest, base=BASE_REF, head=HEAD_REF)


def _commit(repo: Path, message: str, author: str, *, allow_empty: bool) -> None:
    match = _AUTHOR.match(author)
    name, email = (match["name"], match["email"]) if match else (author or "Unknown", "")
    argv = ["commit", "-q", "--no-verify", "-m", message, f"--author={name} <{email}>"]
    if allow_empty:
        argv.append("--allow-empty")
    _git(repo, *argv)


def _git(repo: Path, *args: str) -> None:
    result = run(["git", *args], cwd=repo, timeout_s=_GIT_TIMEOUT_S, env=_git_env())
    if not result.ok:
        raise UserError(f"cannot materialize the case in {repo}: {result.describe()}")


def _git_env() -> dict[str, str]:
    """A fixed identity, dates and no user/system config: the same shas on every machine."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_COMMITTER_NAME": "pr-review eval",
        "GIT_COMMITTER_EMAIL": "eval@example.invalid",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00",
    }
