"""Repository-declared commands: trusted only, scoped, killed with their children at timeout."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from pr_review import process
from pr_review.process import ProcessResult
from pr_review.schema.enums import TrustMode, VerifierStatus
from pr_review.schema.pack import Verification, VerifierRun
from pr_review.sources.model import PullRequest
from pr_review.verifiers import run_verifiers
from pr_review.verifiers.custom import UNTRUSTED_REASON
from pr_review.verifiers.settings import VerifierSettings
from tests.verifiers.prs import make_pr
from tests.verifiers.toggles import OTHER_LANGUAGES_OFF

NO_BUILTINS = {
    **OTHER_LANGUAGES_OFF, "ruff": False, "bandit": False, "secrets": False, "mypy": False
}
BASE = "def f():\n    return 1\n"
HEAD = "def f():\n    return 2\n"  # line 2 changed, line 1 untouched


def settings(*custom: dict[str, object], **extra: object) -> VerifierSettings:
    return VerifierSettings.model_validate({"builtin": NO_BUILTINS, "custom": custom, **extra})


def by_name(verification: Verification, name: str) -> VerifierRun:
    return next(r for r in verification.verifiers if r.name == name)


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


@pytest.fixture(scope="module")
def pr(tmp_path_factory: pytest.TempPathFactory) -> PullRequest:
    root = tmp_path_factory.mktemp("custom")
    return make_pr(root / "repo", {"app/x.py": BASE}, {"app/x.py": HEAD})


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (absent, or a zombie waiting for init)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def test_a_hanging_command_is_killed_at_its_timeout_with_its_children(
    pr: PullRequest, tmp_path: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    # The child inherits stdout, so a kill of the shell alone would leave the pipe open.
    hang = {"name": "hang", "argv": ["sh", "-c", f"sleep 300 & echo $! > {pidfile}; wait"],
            "timeout_seconds": 1}  # fmt: skip
    quick = {"name": "quick", "argv": python("print('ok')"), "format": "none"}
    started = time.monotonic()
    verification = run_verifiers(
        pr, settings(hang, quick, max_parallel=2), trust_mode=TrustMode.TRUSTED, tmp_root=tmp_path
    )
    assert time.monotonic() - started < 20
    hung = by_name(verification, "custom:hang")
    assert hung.status is VerifierStatus.TIMEOUT
    assert "killed" in (hung.reason or "")
    assert by_name(verification, "custom:quick").status is VerifierStatus.PASS
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while not process_gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process_gone(child)
    assert verification.summary.skipped == 1  # the timeout counts as skipped
    assert verification.summary.passed == 1


def test_generic_output_is_scoped_to_changed_lines(pr: PullRequest, tmp_path: Path) -> None:
    printer = python(
        "print('app/x.py:1: warning: old complaint [W1]');"
        "print('app/x.py:2:5: error: E42 new complaint');"
        "print('other.py:1: error: not in the PR');"
        "print('free text that is not a finding')"
    )
    verification = run_verifiers(
        pr, settings({"name": "lint", "argv": printer}), trust_mode=TrustMode.TRUSTED,
        tmp_root=tmp_path,
    )  # fmt: skip
    run = by_name(verification, "custom:lint")
    assert [(f.file, f.line, f.rule_id, f.message) for f in run.findings] == [
        ("app/x.py", 2, "E42", "new complaint")
    ]
    assert run.status is VerifierStatus.FAIL
    assert run.files_checked == ("app/x.py",)


def test_sarif_output_is_parsed(pr: PullRequest, tmp_path: Path) -> None:
    sarif = {
        "version": "2.1.0",
        "runs": [{"results": [{
            "ruleId": "R1", "level": "warning", "message": {"text": "suspicious"},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": "app/x.py"}, "region": {"startLine": 2}}}],
        }]}],
    }  # fmt: skip
    verification = run_verifiers(
        pr, settings({"name": "sarif", "argv": python(f"print({json.dumps(sarif)!r})"),
                      "format": "sarif"}),
        trust_mode=TrustMode.TRUSTED, tmp_root=tmp_path,
    )  # fmt: skip
    run = by_name(verification, "custom:sarif")
    assert [(f.rule_id, f.line, f.message) for f in run.findings] == [("R1", 2, "suspicious")]
    assert run.status is VerifierStatus.WARN


def test_format_none_fails_on_a_nonzero_exit_with_the_reason(
    pr: PullRequest, tmp_path: Path
) -> None:
    failing = python("import sys; sys.exit('broken build')")
    verification = run_verifiers(
        pr, settings({"name": "build", "argv": failing, "format": "none"}),
        trust_mode=TrustMode.TRUSTED, tmp_root=tmp_path,
    )  # fmt: skip
    run = by_name(verification, "custom:build")
    assert run.status is VerifierStatus.FAIL
    assert "broken build" in (run.reason or "")


def test_commands_run_in_a_full_head_checkout(pr: PullRequest, tmp_path: Path) -> None:
    reader = python("print('app/x.py:2: error: saw ' + open('app/x.py').read().split()[-1])")
    verification = run_verifiers(
        pr, settings({"name": "reader", "argv": reader}), trust_mode=TrustMode.TRUSTED,
        tmp_root=tmp_path,
    )  # fmt: skip
    assert [f.message for f in by_name(verification, "custom:reader").findings] == ["saw 2"]


class Recorder:
    """A runner that records every call and then really runs it."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[str, ...], Path | None, dict[str, str]]] = []

    def __call__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path | None = None,
        timeout_s: float,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> ProcessResult:
        self.calls.append((tuple(argv), cwd, dict(env or {})))
        return process.run(argv, cwd=cwd, timeout_s=timeout_s, env=env, stdin=stdin)


SECRET_ENV = {
    "PATH": os.environ.get("PATH", os.defpath),
    "GITHUB_TOKEN": "t0ken",
    "ANTHROPIC_API_KEY": "k3y",
    "AWS_SECRET_ACCESS_KEY": "s3cret",
    "MY_SETTING": "kept-for-trusted-commands",
}


def test_untrusted_mode_skips_commands_and_strips_the_environment(
    pr: PullRequest, tmp_path: Path
) -> None:
    recorder = Recorder()
    marker = tmp_path / "ran"
    toucher = {"name": "toucher", "argv": python(f"open({str(marker)!r}, 'w')")}
    only_ruff_and_custom = VerifierSettings.model_validate(
        {"builtin": {**NO_BUILTINS, "ruff": True}, "custom": [toucher]}
    )
    verification = run_verifiers(
        pr, only_ruff_and_custom, trust_mode=TrustMode.UNTRUSTED, run=recorder,
        tmp_root=tmp_path, environ=SECRET_ENV,
    )  # fmt: skip
    run = by_name(verification, "custom:toucher")
    assert (run.status, run.reason) == (VerifierStatus.SKIPPED, UNTRUSTED_REASON)
    assert not marker.exists()
    assert verification.trust_mode is TrustMode.UNTRUSTED
    assert recorder.calls, "ruff should have run"
    for _, cwd, env in recorder.calls:
        assert cwd is not None
        assert cwd.is_relative_to(tmp_path)
        assert Path(env["HOME"]).is_relative_to(tmp_path)
        assert not {"GITHUB_TOKEN", "ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY",
                    "MY_SETTING"} & set(env)  # fmt: skip


def test_trusted_commands_get_the_environment_without_credentials(
    pr: PullRequest, tmp_path: Path
) -> None:
    recorder = Recorder()
    verification = run_verifiers(
        pr, settings({"name": "env", "argv": python("print(1)"), "format": "none"}),
        trust_mode=TrustMode.TRUSTED, run=recorder, tmp_root=tmp_path, environ=SECRET_ENV,
    )  # fmt: skip
    assert by_name(verification, "custom:env").status is VerifierStatus.PASS
    [(_, _, env)] = recorder.calls
    assert env["MY_SETTING"] == "kept-for-trusted-commands"
    assert not {"GITHUB_TOKEN", "ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY"} & set(env)
