"""No planted credential leaves: ``review`` and ``action``, every request and every output.

One PR carries 40+ credentials of different kinds (see :mod:`tests.security.planted`) in
added, removed and context lines, a deleted ``.env.production``, a UTF-16 file, private-key
files, a shell script's headers and ``curl -u``, verifier messages (bandit B105/B106 quote the
value in single quotes), the PR title and body, a commit message and a file name. It is
reviewed once with the CLI and once by the Action (loopback GitHub and Messages API); the
model fake echoes what it was sent into its findings, so anything that reached it would be
republished. Every surface is then searched for every value, raw and in its escaped forms.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.action.scenario import Scenario
from tests.fakes.anthropic_server import (
    FakeAnthropic,
    RecordedRequest,
    Reply,
    anthropic_server,
    by_tool,
    tool_reply,
)
from tests.fakes.github_server import FakeGitHub, FakePull
from tests.gitrepo import GitRepo
from tests.security.planted import (
    BASE_FILES,
    BODY,
    COMMIT_MESSAGE,
    HEAD_FILES,
    PLACEHOLDERS,
    PLANTS,
    TITLE,
    UTF16_FILE,
    Plant,
    assert_distinct,
)

pytestmark = pytest.mark.slow

CONFIG = "verifiers:\n  builtin:\n    mypy: false\n"
POLICY = json.dumps(
    {
        "instruction": "Add tests whenever behaviour changes",
        "relevant_when": "The pull request changes code",
        "context": "Every behaviour change ships with a test.",
        "sources": [{"type": "file", "filename": "CONTRIBUTING.md"}],
        "checklist": [
            {
                "name": "tests-touched",
                "rule": "The pull request adds or modifies a test",
                "relevant_when": "The pull request changes code",
            }
        ],
    }
)
REPO_FILES = {".pr-review/config.yml": CONFIG, ".pr-review/verifiers/tests.json": POLICY}


# -- the model fake: it repeats what it was sent ----------------------------------------------

_ECHOED = ("PASSWORD", "password", "REDACTED", "Bearer", "Basic", "curl", "KEY", "TOKEN", "://")


def _echo(request: RecordedRequest) -> str:
    """The request's lines that look credential-related, as a careless model would quote them."""
    lines = [line for line in request.text.splitlines() if any(k in line for k in _ECHOED)]
    return "\n".join(lines)[:3000] or "nothing credential-like was sent"


def _finding(request: RecordedRequest, line: int, **extra: object) -> dict[str, Any]:
    seen = _echo(request)
    return {
        "title": "Credentials committed: " + seen[:100].replace("\n", " "),
        "file": "app/clients.py",
        "line_start": line,
        "why_it_matters": "What I was shown: " + seen,
        "evidence_type": "hunk_level_code",
        "evidence_detail": seen,
        "confidence": "high",
        "severity": "high",
        "action": "fix",
        "requires_human": False,
        "category": "security",
        **extra,
    }


def _review(request: RecordedRequest) -> Reply:
    injection = {"location": "pr_description", "quote": _echo(request)[:290]}
    return tool_reply(
        request, {"findings": [_finding(request, 8)], "injection_attempts": [injection]}
    )


def _challenge(request: RecordedRequest) -> Reply:
    finding = _finding(request, 9, classification="novel")
    return tool_reply(request, {"findings": [finding], "injection_attempts": []})


def _policy(request: RecordedRequest) -> Reply:
    check = {
        "name": "tests-touched",
        "applicable": True,
        "passed": False,
        "confidence": "high",
        "evidence": "app/clients.py:8 " + _echo(request)[:400],
        "file": "app/clients.py",
        "line": 8,
    }
    verdict = {"file": "tests.json", "relevant": True, "checks": [check]}
    return tool_reply(request, {"instructions": [verdict]})


def _pairs(request: RecordedRequest) -> Reply:
    return tool_reply(request, {"answers": []})


HANDLER = by_tool(
    {
        "submit_review": _review,
        "submit_challenge": _challenge,
        "submit_policy_verdicts": _policy,
        "submit_pairs": _pairs,
    }
)


# -- the runs ---------------------------------------------------------------------------------


@dataclass
class Run:
    """What one run sent to the model and published, by surface."""

    requests: list[RecordedRequest]
    surfaces: dict[str, str] = field(default_factory=dict)
    findings: list[dict[str, Any]] = field(default_factory=list)


def _make_repo(path: Path) -> tuple[GitRepo, str, str]:
    repo = GitRepo.init(path)
    for name, content in {**BASE_FILES, **REPO_FILES}.items():
        repo.write(name, content)
    base = repo.commit("base")
    repo.branch("feature")
    repo.run("rm", "-q", ".env.production")
    for name, content in HEAD_FILES.items():
        repo.write(name, content)
    head = repo.commit(COMMIT_MESSAGE)
    return repo, base, head


def _environ(model: FakeAnthropic) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITHUB_"))}
    return {**env, "ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": model.base_url}


def _add_request_surfaces(run: Run) -> None:
    for n, request in enumerate(run.requests):
        decoded = json.dumps(json.loads(request.body), ensure_ascii=False)
        run.surfaces[f"model request {n} ({request.tool_name}) raw"] = request.body.decode()
        run.surfaces[f"model request {n} ({request.tool_name}) decoded"] = decoded


@pytest.fixture(scope="module")
def review_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``pr-review review`` of the planted PR, with the model."""
    tmp = tmp_path_factory.mktemp("review")
    repo, _, _ = _make_repo(tmp / "repo")
    body = tmp / "body.md"
    body.write_text(BODY, encoding="utf-8")
    out = tmp / "out"
    with anthropic_server(HANDLER) as model:
        done = subprocess.run(
            [
                sys.executable, "-m", "pr_review", "review", "--repo", str(repo.path),
                "--base", "main", "--title", TITLE, "--body-file", str(body),
                "--out-dir", str(out), "--sarif", str(tmp / "findings.sarif"), "--no-color",
            ],
            capture_output=True, text=True, env=_environ(model), timeout=300, check=False,
        )  # fmt: skip
        run = Run(requests=list(model.messages_requests))
    assert done.returncode == 0, done.stderr
    _add_request_surfaces(run)
    run.surfaces.update(
        {
            "stdout": done.stdout,
            "stderr": done.stderr,
            "packet.md": (out / "packet.md").read_text(encoding="utf-8"),
            "findings.json": (out / "findings.json").read_text(encoding="utf-8"),
            "verdicts.json": (out / "verdicts.json").read_text(encoding="utf-8"),
            "SARIF": (tmp / "findings.sarif").read_text(encoding="utf-8"),
        }
    )
    run.findings = json.loads(run.surfaces["findings.json"])
    return run


def _pull_files(repo: GitRepo, base: str, head: str) -> list[dict[str, Any]]:
    out = []
    for path, (ins, dels) in repo.numstat(base, head).items():
        text = repo.run("diff", f"{base}...{head}", "--", path)
        patch = text[text.index("@@") :] if "@@" in text else None
        status = (
            "added" if "new file mode" in text
            else "removed" if "deleted file mode" in text
            else "modified"
        )  # fmt: skip
        out.append(
            {"filename": path, "status": status, "additions": ins or 0,
             "deletions": dels or 0, "patch": patch}
        )  # fmt: skip
    return out


@pytest.fixture(scope="module")
def action_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``pr-review action`` on a ``pull_request`` event for the planted PR, with the model."""
    tmp = tmp_path_factory.mktemp("action")
    with FakeGitHub("octo/demo") as gh, anthropic_server(HANDLER) as model:
        repo, base, head = _make_repo(tmp / "repo")
        base_tree: dict[str, str | bytes] = {**BASE_FILES, **REPO_FILES}
        gh.trees[base] = base_tree
        gh.trees[head] = {
            **{k: v for k, v in base_tree.items() if k != ".env.production"},
            **HEAD_FILES,
        }
        gh.permissions.update({"alice": "write", "maintainer": "write"})
        gh.add_pull(
            FakePull(
                number=7, head_sha=head, base_sha=base, title=TITLE, body=BODY, author="alice",
                diff=repo.diff(base, head).decode("utf-8"), files=_pull_files(repo, base, head),
                commits=[{"sha": head, "message": COMMIT_MESSAGE}],
            )
        )  # fmt: skip
        scenario = Scenario(gh, repo, tmp, 7, base, head)
        env = {
            **_environ(model),
            **scenario.env("pull_request", anthropic_api_key="test-key"),
            "ANTHROPIC_BASE_URL": model.base_url,
        }
        done = subprocess.run(
            [sys.executable, "-m", "pr_review", "action"],
            env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        run = Run(requests=list(model.messages_requests))
        published = {
            "comment body": gh.comments,
            "inline comments": [*gh.reviews, *gh.review_comments],
            "check run": [*gh.check_runs, *gh.check_run_patches],
            "commit statuses": gh.statuses,
        }
    assert done.returncode == 0, done.stderr
    _add_request_surfaces(run)
    run.surfaces.update({name: json.dumps(v, default=str) for name, v in published.items()})
    run.surfaces.update(
        {
            "stdout (log, annotations)": done.stdout,
            "stderr": done.stderr,
            "job summary": _read(env["GITHUB_STEP_SUMMARY"]),
            "step outputs": _read(env["GITHUB_OUTPUT"]),
        }
    )
    return run


def _read(path: str) -> str:
    file = Path(path)
    return file.read_text(encoding="utf-8") if file.exists() else ""


# -- searching --------------------------------------------------------------------------------


def forms(value: str) -> tuple[str, ...]:
    """The value raw, JSON-escaped and URL-encoded; each long line of a multi-line value."""
    found = [value, json.dumps(value)[1:-1], quote(value, safe="")]
    found += [line for line in value.splitlines() if len(line) >= 16 and "-----" not in line]
    return tuple(dict.fromkeys(found))


def leaks(text: str, plants: tuple[Plant, ...] = PLANTS) -> list[str]:
    """The kinds whose value appears in ``text`` in any form."""
    return [p.kind for p in plants if any(form in text for form in forms(p.value))]


REVIEW_SURFACES = ("stdout", "stderr", "packet.md", "findings.json", "verdicts.json", "SARIF")
ACTION_SURFACES = (
    "comment body",
    "inline comments",
    "check run",
    "commit statuses",
    "stdout (log, annotations)",
    "stderr",
    "job summary",
    "step outputs",
)


def test_at_least_30_distinct_kinds_are_planted() -> None:
    assert_distinct()
    assert len(PLANTS) >= 30


def test_the_search_finds_a_planted_value() -> None:
    """The check can fail: a value in any of its forms is found."""
    plant = PLANTS[0]
    for form in forms(plant.value):
        assert leaks(f"x {form} y") == [plant.kind]
    assert leaks("nothing here") == []


def test_review_called_every_model_purpose(review_run: Run) -> None:
    tools = {r.tool_name for r in review_run.requests}
    assert {"submit_review", "submit_challenge", "submit_policy_verdicts"} <= tools


def test_action_called_every_model_purpose_and_published(action_run: Run) -> None:
    tools = {r.tool_name for r in action_run.requests}
    assert {"submit_review", "submit_challenge", "submit_policy_verdicts"} <= tools
    for surface in ("comment body", "inline comments", "check run", "job summary"):
        assert len(action_run.surfaces[surface]) > 20, surface


def test_no_model_request_of_the_review_carries_a_value(review_run: Run) -> None:
    found = {
        name: leaks(text)
        for name, text in review_run.surfaces.items()
        if name.startswith("model request")
    }
    assert {name: kinds for name, kinds in found.items() if kinds} == {}


def test_no_model_request_of_the_action_carries_a_value(action_run: Run) -> None:
    found = {
        name: leaks(text)
        for name, text in action_run.surfaces.items()
        if name.startswith("model request")
    }
    assert {name: kinds for name, kinds in found.items() if kinds} == {}


@pytest.mark.parametrize("surface", REVIEW_SURFACES)
def test_no_review_output_carries_a_value(review_run: Run, surface: str) -> None:
    assert review_run.surfaces[surface], f"{surface} is empty: nothing was checked"
    assert leaks(review_run.surfaces[surface]) == []


@pytest.mark.parametrize("surface", ACTION_SURFACES)
def test_no_action_output_carries_a_value(action_run: Run, surface: str) -> None:
    assert leaks(action_run.surfaces[surface]) == []


def test_the_model_saw_placeholders_not_values(review_run: Run) -> None:
    """Redaction leaves typed placeholders, and stand-ins such as ``changeme`` as written."""
    sent = "\n".join(r.text for r in review_run.requests if r.tool_name == "submit_review")
    assert "[REDACTED:aws_access_key_id#" in sent
    assert "[REDACTED:private_key#" in sent
    for placeholder in PLACEHOLDERS:
        assert placeholder in sent, placeholder


def test_binary_and_utf16_files_are_listed_among_the_files_no_model_saw(review_run: Run) -> None:
    (listed,) = [
        line for line in review_run.surfaces["packet.md"].splitlines()
        if line.startswith("- Files no AI reviewer saw:")
    ]  # fmt: skip
    assert UTF16_FILE in listed


def test_placeholders_are_not_reported_as_leaks(review_run: Run) -> None:
    on_sample = [f for f in review_run.findings if f["file"] == "config/example.env"]
    assert all(f["severity"] == "low" and f["action"] == "verify" for f in on_sample)
    assert not [f for f in on_sample if f["requires_human"]]


# -- the table: kind -> detected -> redacted --------------------------------------------------


def planted_line(plant: Plant) -> tuple[str, int] | None:
    """Where a value sits in the head tree (file, 1-based line), if it is in a file."""
    first = plant.value.splitlines()[0]
    for path, raw in HEAD_FILES.items():
        text = raw.decode("utf-16") if path == UTF16_FILE else raw.decode("utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if first in line:
                return path, number
    return None


NOT_REPORTED = frozenset(
    {
        "removed_line_password",
        "context_line_password",
        "deleted_env_file_secret",
        "pr_title_token",
        "pr_body_prose_password",
        "commit_message_key",
        "file_name_token",
    }
)
"""Redacted, not reported as findings: not added by the PR in a file (a finding would have no
line to stand on, or, for the file name, would republish the value in its path)."""


def detection_table(run: Run) -> list[tuple[str, bool, bool]]:
    """(kind, reported as a finding on its line, absent from every request and output)."""
    hits = {
        (f["file"], f["line_start"])
        for f in run.findings
        # bandit's credential rules (B105/B106) report LOW; a low secrets finding is a
        # placeholder, which does not count as detecting a value.
        if f["origin"] == "bandit" or (f["origin"] == "secrets" and f["severity"] != "low")
    }
    table = []
    for plant in PLANTS:
        where = planted_line(plant)
        detected = where is not None and where in hits and plant.kind not in NOT_REPORTED
        redacted = not any(leaks(text, (plant,)) for text in run.surfaces.values())
        table.append((plant.kind, detected, redacted))
    return table


def test_every_kind_is_redacted_and_every_file_secret_detected(review_run: Run) -> None:
    table = detection_table(review_run)
    print("\nkind | detected | redacted")
    for kind, detected, redacted in table:
        print(f"{kind} | {'yes' if detected else 'no'} | {'yes' if redacted else 'no'}")
    assert [kind for kind, _, redacted in table if not redacted] == []
    missed = [kind for kind, detected, _ in table if not detected and kind not in NOT_REPORTED]
    assert missed == []
