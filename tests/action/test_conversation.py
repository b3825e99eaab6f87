"""The conversation end to end (loopback GitHub REST and GraphQL, loopback Messages API, real
PyGithub and anthropic SDK, the action as a subprocess): a maintainer's `/review dismiss`
reply or thumbs-down on our inline comment keeps the finding out of the ranked list and the
inline comments for the rest of the PR, even after a push moves it 20 lines, and the packet
lists it under "Dismissed" with who and why; a dismissal by someone without write access is
ignored and the packet says so; a dismissal forged into someone else's comment is never
trusted; a mechanical fix is offered as a suggestion block; our thread is resolved, with one
reply naming the commit, when a push fixes its finding, and never a person's thread."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pr_review.packet.state import parse_state, render_state
from pr_review.publish.inline import FINGERPRINT_PATTERN
from pr_review.synthesis.memory import Dismissal
from tests.action.scenario import RED_CONFIG, Scenario, action, push, run_with_model
from tests.fakes.anthropic_server import (
    FakeAnthropic,
    RecordedRequest,
    Reply,
    anthropic_server,
    tool_reply,
)
from tests.fakes.github_server import FakeGitHub

pytestmark = pytest.mark.slow

CONFIG = RED_CONFIG + "verifiers:\n  builtin:\n    mypy: false\n"
MARK = "charge(card, amount)"
PAY = f"def pay(card, amount):\n    return {MARK}\n"
_NUMBERED = re.compile(r"^\s*(\d+) \+(.*)$")
_FILE = re.compile(r"\+\+\+ b/(\S+)")


def _flag_the_charge(request: RecordedRequest) -> Reply:
    """A reviewer that reports the line holding ``MARK``, wherever it is."""
    blocks = request.json.get("system", [])
    findings: list[dict[str, Any]] = []
    current = None
    for line in (blocks[-1]["text"] if blocks else "").splitlines():
        if (match := _FILE.search(line)) is not None:
            current = match.group(1)
        elif current and (added := _NUMBERED.match(line)) and MARK in added.group(2):
            number = int(added.group(1))
            findings.append({
                "title": "A negative amount is charged", "file": current,
                "line_start": number, "line_end": number,
                "why_it_matters": "charge() takes the amount without a sign check.",
                "evidence_type": "hunk_level_code", "evidence_detail": MARK,
                "confidence": "high", "severity": "high", "action": "fix",
                "requires_human": False, "category": "correctness",
                "replacement": "    return charge(card, abs(amount))",
            })  # fmt: skip
    return tool_reply(request, {"findings": findings})


@pytest.fixture
def model() -> Iterator[FakeAnthropic]:
    with anthropic_server(_flag_the_charge) as fake:
        yield fake


def _findings(env: dict[str, str], number: int) -> list[dict[str, Any]]:
    out = Path(env["RUNNER_TEMP"]) / "pr-review" / str(number) / "findings.json"
    found = json.loads(out.read_text(encoding="utf-8"))
    return [f for f in found if f["title"].startswith("A negative")]


def _ours(gh: FakeGitHub) -> list[dict[str, Any]]:
    """Our inline comments on the charge finding."""
    return [
        c for c in gh.review_comments
        if FINGERPRINT_PATTERN.search(c.get("body", "")) and "A negative amount" in c["body"]
    ]  # fmt: skip


def _first_review(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> tuple[Scenario, dict[str, Any]]:
    s = scenario({"app/pay.py": PAY}, config=CONFIG)
    gh.git_dir = s.repo.path
    gh.permissions.update({"maintainer": "write", "drive-by": "read"})
    env = run_with_model(s, model)
    (comment,) = _ours(gh)
    (finding,) = _findings(env, s.number)
    assert not finding["suppressed"]
    return s, comment


def _move_20_lines_down(s: Scenario) -> None:
    padding = "".join(f"# note {i}\n" for i in range(20))
    push(s, {"app/pay.py": padding + PAY})


def test_a_maintainers_dismissal_survives_a_push_that_moves_the_finding(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    gh.reply_inline(comment["id"], "/review dismiss validated by the caller", "maintainer")
    _move_20_lines_down(s)
    env = run_with_model(s, model)
    (finding,) = _findings(env, s.number)
    assert finding["line_start"] == 22  # moved 20 lines, same fingerprint
    assert finding["suppressed"]
    assert finding["suppression_reason"] == (
        "dismissed by maintainer (reply): validated by the caller"
    )
    assert len(_ours(gh)) == 1  # not commented again
    packet = gh.comments[0]["body"]
    assert "#### Dismissed" in packet
    assert "dismissed by maintainer (reply): validated by the caller" in packet
    state = parse_state(packet)
    assert state is not None
    assert [d.by for d in state.dismissed] == ["maintainer"]
    _move_20_lines_down(s)  # remembered from the state block on later pushes too
    env = run_with_model(s, model)
    assert _findings(env, s.number)[0]["suppressed"]


def test_a_mechanical_fix_is_offered_as_a_suggestion_on_the_inline_comment(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    _, comment = _first_review(gh, scenario, model)
    assert "```suggestion\n    return charge(card, abs(amount))\n```" in comment["body"]
    assert comment["line"] == 2
    assert "start_line" not in comment  # one line replaced: a single-line anchor


def test_a_thumbs_down_by_a_maintainer_dismisses(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    gh.react_inline(comment["id"], "-1", "maintainer")
    env = run_with_model(s, model, force="true")
    (finding,) = _findings(env, s.number)
    assert finding["suppression_reason"] == "dismissed by maintainer (reaction)"


def test_a_maintainer_resolving_our_thread_dismisses(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    gh.resolve_as(comment["id"], "maintainer")
    env = run_with_model(s, model, force="true")
    (finding,) = _findings(env, s.number)
    assert finding["suppression_reason"] == "dismissed by maintainer (resolved thread)"


def test_a_configured_dismissal_is_permanent(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    (mark,) = FINGERPRINT_PATTERN.findall(comment["body"])
    config = CONFIG + (f"synthesis:\n  dismiss:\n    - paths: ['app/**']\n"
                       f"      fingerprint: '{mark}'\n      reason: amounts are signed upstream\n")
    s.gh.trees[s.base_sha][".pr-review/config.yml"] = config
    env = run_with_model(s, model, force="true")
    (finding,) = _findings(env, s.number)
    assert finding["suppression_reason"] == (
        "dismissed by the repository's configuration: amounts are signed upstream"
    )


def test_a_dismissal_without_write_access_is_ignored_and_said(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    gh.reply_inline(comment["id"], "/review dismiss not a bug", "drive-by")
    gh.react_inline(comment["id"], "-1", "reader")
    env = run_with_model(s, model, force="true")
    (finding,) = _findings(env, s.number)
    assert not finding["suppressed"], finding["suppression_reason"]
    packet = gh.comments[0]["body"]
    assert "A dismissal by drive-by (reply) was ignored" in packet
    assert "A dismissal by reader (reaction) was ignored" in packet
    assert "needs write access" in packet


def test_a_dismissal_forged_into_someone_elses_comment_is_not_trusted(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    ours = gh.comments.pop()
    real = parse_state(ours["body"])
    assert real is not None
    (mark,) = FINGERPRINT_PATTERN.findall(comment["body"])
    forged = real.model_copy(
        update={"dismissed": (Dismissal(fingerprint=mark, by="maintainer", how="reply"),)}
    )
    gh.add_comment(s.number, ours["body"].replace(render_state(real), render_state(forged)),
                   s.pull.author)  # fmt: skip
    env = run_with_model(s, model, force="true")
    (finding,) = _findings(env, s.number)
    assert not finding["suppressed"]


# -- our threads resolved after a fix ----------------------------------------------------------


def _thread_replies(gh: FakeGitHub, root: int) -> list[str]:
    return [c["body"] for c in gh.review_comments if c.get("in_reply_to_id") == root]


def test_a_fixed_findings_thread_is_resolved_with_one_reply_naming_the_commit(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    person = gh.reply_inline(comment["id"], "good catch, fixing", "maintainer")
    fixed = push(s, {"app/pay.py": PAY.replace(MARK, "charge(card, abs(amount))")})
    env = run_with_model(s, model)
    assert _findings(env, s.number) == []  # the reviewer no longer reports it
    assert gh.resolved_threads == {comment["id"]}
    replies = _thread_replies(gh, comment["id"])
    assert replies[0] == person["body"]
    assert replies[1] == (
        f"Fixed in {fixed[:12]}: this finding is no longer reported and the line it was on "
        "changed."
    )
    run_with_model(s, model, force="true")  # nothing more to do: no second reply, no second resolve
    assert len(_thread_replies(gh, comment["id"])) == 2
    resolves = [c for c in gh.graphql_calls if "resolveReviewThread" in c["query"]]
    assert len(resolves) == 1


def test_a_thread_is_left_open_while_its_line_is_unchanged(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    """The reviewer did not report the finding again, but the code is the same: a model's
    silence is not a fix."""
    s, _ = _first_review(gh, scenario, model)
    push(s, {"app/notes.py": "# unrelated\n"})
    with anthropic_server(lambda r: tool_reply(r, {"findings": []})) as quiet:
        run_with_model(s, quiet, force="true")
    assert gh.resolved_threads == set()


def test_a_persons_thread_is_never_resolved(
    gh: FakeGitHub, scenario: Callable[..., Scenario], model: FakeAnthropic
) -> None:
    s, comment = _first_review(gh, scenario, model)
    theirs = {**comment, "id": gh.next_id(), "user": {"login": "maintainer", "type": "User"}}
    gh.review_comments.append(theirs)  # a person's thread carrying our marker (copied text)
    push(s, {"app/pay.py": PAY.replace(MARK, "charge(card, abs(amount))")})
    run_with_model(s, model)
    assert gh.resolved_threads == {comment["id"]}
    assert _thread_replies(gh, theirs["id"]) == []


def test_a_verifiers_own_safe_fix_is_a_suggestion(
    gh: FakeGitHub, scenario: Callable[..., Scenario]
) -> None:
    """ruff's safe fix of F541 (an f-string without placeholders) is offered on its line."""
    ruff = {"pyproject.toml": '[tool.ruff.lint]\nselect = ["F541"]\n'}
    code = {"app/greet.py": 'def greet():\n    return f"hello"\n'}
    s = scenario(code, config=CONFIG, base_extra=ruff)
    done = action(s.env("pull_request"))
    assert done.returncode in (0, 1), done.stderr
    (comment,) = [c for c in gh.review_comments if "F541" in c["body"] or "placeholder" in
                  c["body"].lower() or c.get("path") == "app/greet.py"]  # fmt: skip
    assert '```suggestion\n    return "hello"\n```' in comment["body"]
    assert comment["line"] == 2
