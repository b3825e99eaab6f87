"""Benchmark corpus cases turned into real git repositories (``pr-review eval``, bench).

Two forms: a diff-form case is materialized into its own repository
(:func:`materialize_case`); a bundle-form corpus's ``repos/<repo>.bundle`` is cloned once
(:func:`clone_bundle`) and every case of that repo is reviewed by its commits in that clone.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from pr_review import process
from pr_review.errors import UserError

BASE_BRANCH = "base"
PR_BRANCH = "pr"
_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "HOME": "/nonexistent",
    "PATH": "/usr/local/bin:/usr/bin:/bin",
}


class CaseCommit(BaseModel):
    """One commit of a case: its message (trailers kept) and ``Name <email>`` author."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    message: str
    author: str = "Corpus Author <author@corpus.invalid>"


class Case(BaseModel):
    """``case.json`` (common corpus format)."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    id: str
    repo: str
    title: str = ""
    body: str = ""
    labels: tuple[str, ...] = ()
    commits: tuple[CaseCommit, ...] = ()
    expected: dict[str, object] = Field(default_factory=dict)


def load_case(case_dir: Path) -> Case:
    """Read and validate ``case_dir/case.json``."""
    try:
        return Case.model_validate(json.loads((case_dir / "case.json").read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise UserError(f"{case_dir}: cannot read case.json ({exc}).") from exc


def materialize_case(case_dir: Path, repos_dir: Path, dest: Path) -> Path:
    """Build a git repository at ``dest``: branch ``base`` holds the base tree, ``pr`` the PR.

    The PR's diff is applied with ``git apply`` and committed with the case's commit
    message(s) and author(s); when a case has several commits the whole diff goes into the
    last one, earlier ones are empty. Returns ``dest``.
    """
    case = load_case(case_dir)
    base = repos_dir / case.repo / "base"
    if not base.is_dir():
        raise UserError(f"{case_dir}: base tree {base} not found.")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(base, dest)
    _git(dest, "init", "-q", "-b", BASE_BRANCH)
    _git(dest, "add", "-A")
    _commit(dest, "Base tree", "Corpus Base <base@corpus.invalid>")
    _git(dest, "checkout", "-q", "-b", PR_BRANCH)
    _git(dest, "apply", "--whitespace=nowarn", str((case_dir / "pr.diff").resolve()))
    _git(dest, "add", "-A")
    commits = case.commits or (CaseCommit(message=case.title or case.id),)
    for index, commit in enumerate(commits):
        last = index == len(commits) - 1
        _commit(dest, commit.message, commit.author, allow_empty=not last)
    return dest


def clone_bundle(bundle: Path, dest: Path) -> Path:
    """A bare repository at ``dest`` holding every ref of the git bundle ``bundle``.

    Bare, so there is no working tree to keep in step: the review reads commits and trees
    only, so one clone serves any number of cases, concurrently. Returns ``dest``.
    """
    if not bundle.is_file():
        raise UserError(f"{bundle}: no such git bundle. Check the corpus's repos/ directory.")
    dest.mkdir(parents=True, exist_ok=True)
    _git(dest, "init", "-q", "--bare")
    source = str(bundle.resolve())
    heads = process.run(
        ["git", "bundle", "list-heads", source], cwd=dest, timeout_s=60, env=_ENV
    )
    if not heads.ok:
        raise UserError(f"{bundle}: not a readable git bundle ({heads.describe()}).")
    names = {line.split(" ", 1)[1] for line in heads.text().splitlines() if " " in line}
    # Every ref, and a bundle made from a bare HEAD (`git bundle create f HEAD`) too.
    specs = (["+refs/*:refs/*"] if any(n.startswith("refs/") for n in names) else []) + (
        ["+HEAD:refs/bundle/HEAD"] if "HEAD" in names else []
    )
    if not specs:
        raise UserError(f"{bundle}: the bundle holds no refs. Re-create it with refs to fetch.")
    _git(dest, "fetch", "-q", "--no-tags", source, *specs, timeout_s=600)
    return dest


def _commit(repo: Path, message: str, author: str, *, allow_empty: bool = False) -> None:
    name, _, email = author.partition("<")
    env = {
        "GIT_AUTHOR_NAME": name.strip() or "Unknown",
        "GIT_AUTHOR_EMAIL": email.rstrip(">").strip(),
        "GIT_COMMITTER_NAME": "Corpus",
        "GIT_COMMITTER_EMAIL": "corpus@corpus.invalid",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    }
    args = ["commit", "-q", "--no-verify", "--cleanup=verbatim", "-F", "-"]
    if allow_empty:
        args.insert(1, "--allow-empty")
    _git(repo, *args, env=env, stdin=message.encode())


def _git(
    repo: Path,
    *args: str,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    timeout_s: float = 60,
) -> None:
    result = process.run(
        ["git", *args], cwd=repo, timeout_s=timeout_s, env={**_ENV, **(env or {})}, stdin=stdin
    )
    if not result.ok:
        raise UserError(f"{result.describe()} (in {repo}).")
