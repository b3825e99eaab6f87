"""Bad local inputs end in exit 1 with one line that says the cause and the fix.

Each case runs the real ``pr-review pack`` entry point (``cli.main``) on a real git
repository; stderr must hold exactly one error line, no traceback.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pr_review.cli import main
from tests.gitrepo import GitRepo, git_env


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    """main with one file; branch feature changes it."""
    git_repo.write("app.py", "x = 1\n")
    git_repo.commit("base")
    git_repo.branch("feature")
    git_repo.write("app.py", "x = 2\n")
    git_repo.commit("change")
    return git_repo


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``pr-review pack ARGS``; the one error line (exit 1 asserted)."""
    code = main(["pack", *args])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("pr-review: error:")]
    assert len(errors) == 1, err
    return errors[0]


def test_config_directory(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(capsys, "--repo", str(repo.path), "--base", "main", "--config", str(repo.path))
    assert "is a directory" in line
    assert "pass the YAML file itself" in line


def test_blob_sha_as_base(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    blob = repo.run("rev-parse", "main:app.py").strip()
    line = _error(capsys, "--repo", str(repo.path), "--base", blob)
    assert "names a blob" in line
    assert "not a commit" in line
    assert "git fetch" not in line  # the old message sent people fetching a file


def test_body_file_dev_zero(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(capsys, "--repo", str(repo.path), "--base", "main", "--body-file", "/dev/zero")
    assert "--body-file /dev/zero is larger than" in line


def test_body_file_with_nul_bytes(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.bin"
    body.write_bytes(b"PK\x03\x04\x00\x00binary")
    line = _error(capsys, "--repo", str(repo.path), "--base", "main", "--body-file", str(body))
    assert "not a text file" in line


@pytest.mark.parametrize(
    "yaml_text",
    ["risk: !!python/object:os.system\n  a: 1\n", 'risk: !!python/object/apply:os.system ["id"]\n'],
)
def test_python_yaml_tag(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml_text: str
) -> None:
    config = tmp_path / "config.yml"
    config.write_text(yaml_text, encoding="utf-8")
    line = _error(capsys, "--repo", str(repo.path), "--base", "main", "--config", str(config))
    assert "the YAML tag !!python/object" in line
    assert "is not allowed" in line
    assert "remove the tag" in line


def test_shallow_clone(repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clone = tmp_path / "shallow"
    url = repo.path.resolve().as_uri()
    for argv in (
        ["git", "clone", "-q", "--depth", "1", "--branch", "feature", url, str(clone)],
        ["git", "-C", str(clone), "fetch", "-q", "--depth", "1", "origin", "main:main"],
    ):
        subprocess.run(argv, check=True, env=git_env(), capture_output=True)
    line = _error(capsys, "--repo", str(clone), "--base", "main")
    assert "shallow clone" in line
    assert "git fetch --unshallow" in line
    assert "fetch-depth: 0" in line
    assert "unrelated histories" not in line


def test_dubious_ownership(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # git's own test switch: act as if the repository belonged to another user.
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
    line = _error(capsys, "--repo", str(repo.path), "--base", "main")
    assert "dubious ownership" in line
    assert f"safe.directory {repo.path.resolve()}" in line
    assert "not a git repository" not in line
