"""A pull request made with real git, served by the fake GitHub, plus the runner's environment.

``Scenario.env(...)`` returns the variables GitHub sets for a container action: the event
name and payload file (real payload shapes, trimmed), ``GITHUB_*`` paths, and ``INPUT_*``
values with the action's defaults.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.github_server import FakeGitHub, FakePull
from tests.gitrepo import GitRepo

RED_CONFIG = """\
risk:
  overrides:
    - paths: ["auth/**"]
      lane: red
      reason: authentication code
"""

BASE_FILES = {
    ".pr-review/config.yml": RED_CONFIG,
    "README.md": "# demo\n\nA demo service.\n",
    "auth/session.py": "def check(token):\n    return token == 'ok'\n",
    "app/util.py": "def add(a, b):\n    return a + b\n",
    ".github/CODEOWNERS": "auth/ @octo/security\n",
}


@dataclass
class Scenario:
    """One PR in a git repository and on the fake server."""

    gh: FakeGitHub
    repo: GitRepo
    tmp: Path
    number: int
    base_sha: str
    head_sha: str
    inputs: dict[str, str] = field(default_factory=dict)

    @property
    def pull(self) -> FakePull:
        """The served PR."""
        return self.gh.pulls[self.number]

    def payload(self, event: str, **extra: Any) -> dict[str, Any]:
        """A trimmed real payload for ``event``."""
        sender = {"login": extra.pop("sender", self.pull.author), "type": "User"}
        if event in ("pull_request", "pull_request_target"):
            return {
                "action": extra.pop("action", "synchronize"),
                "number": self.number,
                "pull_request": self.gh.pull_json(self.pull),
                "repository": {"full_name": self.gh.repository},
                "sender": sender,
                **extra,
            }
        if event == "issue_comment":
            comment = extra.pop("comment")
            return {
                "action": "created",
                "issue": {
                    "number": self.number,
                    "pull_request": {"url": self.gh.repo_url(f"/pulls/{self.number}")},
                },
                "comment": comment,
                "repository": {"full_name": self.gh.repository},
                "sender": sender,
            }
        if event == "workflow_dispatch":
            return {"inputs": extra.pop("inputs", {}), "ref": "refs/heads/main", "sender": sender}
        return {"sender": sender, **extra}

    def env(
        self, event: str, payload: dict[str, Any] | None = None, **inputs: str
    ) -> dict[str, str]:
        """The container's environment for one run."""
        run_dir = self.tmp / f"run{len(list(self.tmp.glob('run*')))}"
        run_dir.mkdir()
        (self.tmp / "home").mkdir(exist_ok=True)
        event_path = run_dir / "event.json"
        event_path.write_text(json.dumps(payload or self.payload(event)), encoding="utf-8")
        values = {
            "github_token": "ghs_fake",
            "anthropic_api_key": "",
            "config_path": ".pr-review/config.yml",
            "mode": "gate",
            "post_comment": "true",
            "inline_comments": "true",
            "pr_number": "",
            "force": "false",
            "fail_on_error": "true",
            **self.inputs,
            **inputs,
        }
        env = {
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_EVENT_NAME": event,
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_REPOSITORY": self.gh.repository,
            "GITHUB_API_URL": self.gh.base_url,
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_RUN_ID": "42",
            "GITHUB_OUTPUT": str(run_dir / "output"),
            "GITHUB_STEP_SUMMARY": str(run_dir / "summary.md"),
            "GITHUB_WORKSPACE": str(self.repo.path),
            "RUNNER_TEMP": str(run_dir / "temp"),
            "HOME": str(self.tmp / "home"),
            "PATH": os.environ.get("PATH", os.defpath),
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        env.update({f"INPUT_{k.upper()}": v for k, v in values.items()})
        return env


def outputs(env: dict[str, str]) -> dict[str, str]:
    """The ``$GITHUB_OUTPUT`` values written during a run (delimiter form)."""
    path = Path(env["GITHUB_OUTPUT"])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    found = {}
    for m in re.finditer(r"^(\w+)<<(\S+)\n(.*?)\n\2$", text, re.MULTILINE | re.DOTALL):
        found[m.group(1)] = m.group(3)
    return found


def summary(env: dict[str, str]) -> str:
    """The job summary written during a run."""
    path = Path(env["GITHUB_STEP_SUMMARY"])
    return path.read_text(encoding="utf-8") if path.exists() else ""


def make_scenario(
    gh: FakeGitHub,
    repo: GitRepo,
    tmp: Path,
    changes: dict[str, str],
    *,
    number: int = 7,
    author: str = "alice",
    body: str = "Fixes #3",
    config: str = RED_CONFIG,
    base_extra: dict[str, str] | None = None,
) -> Scenario:
    """Commit the base (``BASE_FILES``, ``config`` and ``base_extra``), branch, commit
    ``changes`` and serve the PR."""
    base_files = {**BASE_FILES, ".pr-review/config.yml": config, **(base_extra or {})}
    for path, text in base_files.items():
        repo.write(path, text)
    base = repo.commit("base")
    repo.branch("feature")
    for path, text in changes.items():
        repo.write(path, text)
    head = repo.commit("change\n\nCo-authored-by: Bob <bob@x.invalid>")
    diff = repo.diff(base, head).decode("utf-8")
    gh.trees[base] = dict(base_files)
    gh.trees[head] = {**base_files, **changes}
    gh.issues[3] = {"title": "Session check is weak", "body": "Tokens compare badly.", "labels": []}
    gh.permissions.update(
        {"maintainer": "write", "admin1": "admin", author: "write", "reader": "read"}
    )
    gh.add_pull(
        FakePull(
            number=number,
            head_sha=head,
            base_sha=base,
            title="Change things",
            body=body,
            author=author,
            diff=diff,
            files=_files(repo, base, head),
            commits=[{"sha": head, "message": "change\n\nCo-authored-by: Bob <bob@x.invalid>"}],
        )
    )
    return Scenario(gh, repo, tmp, number, base, head)


def _files(repo: GitRepo, base: str, head: str) -> list[dict[str, Any]]:
    """The files API entries for the PR (patch = the file's hunks, as GitHub sends them)."""
    out = []
    for path, (ins, dels) in repo.numstat(base, head).items():
        text = repo.run("diff", f"{base}...{head}", "--", path)
        patch = text[text.index("@@") :] if "@@" in text else None
        status = "added" if "new file mode" in text else "modified"
        out.append(
            {
                "filename": path,
                "status": status,
                "additions": ins or 0,
                "deletions": dels or 0,
                "patch": patch,
            }
        )
    return out


def push(s: Scenario, changes: dict[str, str], *, amend: bool = False) -> str:
    """A push to the PR's branch: the files written and committed (or the last commit
    amended, as a force-push), the fake PR and trees moved to the new head."""
    for path, text in changes.items():
        s.repo.write(path, text)
    if amend:
        s.repo.run("commit", "-q", "-a", "--amend", "-m", "rewritten")
        head = s.repo.sha()
    else:
        head = s.repo.commit("push")
    pull = s.pull
    pull.head_sha = head
    pull.diff = s.repo.diff(s.base_sha, head).decode("utf-8")
    pull.files = _files(s.repo, s.base_sha, head)
    pull.commits = [{"sha": head, "message": "push"}]
    s.gh.trees[head] = {**s.gh.trees[s.head_sha], **changes}
    s.head_sha = head
    return head


def action(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the action as the container would."""
    return subprocess.run(
        [sys.executable, "-m", "pr_review", "action"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_with_model(s: Scenario, model: FakeAnthropic, **inputs: str) -> dict[str, str]:
    """A ``pull_request`` run with a key, against the loopback Messages API ``model``; the
    run's environment (its outputs and summary are read from there)."""
    env = s.env("pull_request", anthropic_api_key="test-key", **inputs)
    env["ANTHROPIC_BASE_URL"] = model.base_url
    done = action(env)
    assert done.returncode in (0, 1), done.stderr
    return env
