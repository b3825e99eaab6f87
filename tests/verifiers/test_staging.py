"""Only what a selected verifier reads is written to the workspace."""

from __future__ import annotations

from pathlib import Path

from pr_review.sources.model import PullRequest
from pr_review.verifiers.run import _stage
from pr_review.verifiers.settings import VerifierSettings
from pr_review.verifiers.workspace import Workspace
from tests.verifiers.prs import make_pr
from tests.verifiers.toggles import OTHER_LANGUAGES_OFF


def _pr(tmp_path: Path) -> PullRequest:
    return make_pr(
        tmp_path / "repo",
        {"app/__init__.py": "", "app/a.py": "x = 1\n", "web/app.js": "var a = 1;\n"},
        {"app/a.py": "x = 2\n", "web/app.js": "var a = 2;\n", "README.md": "hi\n"},
    )


def test_secrets_alone_stages_nothing(tmp_path: Path) -> None:
    pr = _pr(tmp_path)
    only_secrets = VerifierSettings.model_validate(
        {"builtin": {**OTHER_LANGUAGES_OFF, "ruff": False, "bandit": False, "mypy": False}}
    )
    ws = Workspace(tmp_path / "ws")
    staged = _stage(pr, ws, pr.base_tree, only_secrets, full_checkout=False)
    assert staged.head_files == ()
    assert staged.base_files == ()
    assert list(ws.head.rglob("*")) == []


def test_python_tools_without_commands_stage_python_files_only(tmp_path: Path) -> None:
    pr = _pr(tmp_path)
    ws = Workspace(tmp_path / "ws")
    python_only = VerifierSettings.model_validate({"builtin": OTHER_LANGUAGES_OFF})
    staged = _stage(pr, ws, pr.base_tree, python_only, full_checkout=False)
    assert staged.head_files == ("app/a.py",)
    assert staged.base_files == ("app/a.py",)
    assert not (ws.head / "web" / "app.js").exists()
    assert (ws.head / "app" / "__init__.py").is_file()  # package markers still written


def test_the_default_tools_stage_the_files_of_their_languages_only(tmp_path: Path) -> None:
    pr = _pr(tmp_path)
    ws = Workspace(tmp_path / "ws")
    staged = _stage(pr, ws, pr.base_tree, VerifierSettings(), full_checkout=False)
    assert staged.head_files == ("app/a.py", "web/app.js")
    assert not (ws.head / "README.md").exists()
