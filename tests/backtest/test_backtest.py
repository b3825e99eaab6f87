"""``pr-review backtest`` on repositories built in the test: history, review, report, errors."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pr_review.backtest.estimate import ASSUMED_OUTPUT_TOKENS, CostMeter, EstimatingModel
from pr_review.backtest.history import MergeKind, Selection, find_merged_prs, parse_since
from pr_review.backtest.progress import Progress
from pr_review.backtest.run import RunSettings, review_all
from pr_review.cli import main
from pr_review.config import Config
from pr_review.errors import UserError
from pr_review.reviewers.interface import StructuredModel
from pr_review.reviewers.settings import ModelPrice
from tests.backtest.history_repo import History, build_history
from tests.gitrepo import GitRepo


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    return build_history(tmp_path_factory.mktemp("bt") / "shop")


def test_merges_and_squashes_are_found_newest_first_direct_pushes_left_out(
    history: History,
) -> None:
    prs = find_merged_prs(history.repo.path, "main", Selection(last=100))
    assert [(p.kind, p.number, p.title) for p in prs] == [
        (MergeKind.MERGE, 4, "Triple payments"),
        (MergeKind.MERGE, 3, "Billing is red"),
        (MergeKind.SQUASH, 2, "Double payments"),
        (MergeKind.MERGE, 1, "Add a guide"),
    ]
    by_number = {p.number: p for p in prs}
    four = next(m for m in history.merges if m["number"] == 4)
    assert by_number[4].head == four["head"]
    assert by_number[4].base == four["first_parent"]
    two = next(m for m in history.merges if m["number"] == 2)
    assert (by_number[2].base, by_number[2].head) == (two["base"], two["commit"])
    assert by_number[2].body == "* the PR's commits"


def test_last_and_since_select(history: History) -> None:
    newest = find_merged_prs(history.repo.path, "main", Selection(last=2))
    assert [p.number for p in newest] == [4, 3]
    # Every commit of the test repository has the same fixed date (2024-01-02).
    assert len(find_merged_prs(history.repo.path, "main",
                               Selection(since=parse_since("2024-01-02")))) == 4
    with pytest.raises(UserError, match=r"no merged pull requests merged since 2024-02-01"):
        find_merged_prs(history.repo.path, "main", Selection(since=parse_since("2024-02-01")))
    assert parse_since("2024-01-31") == datetime(2024, 1, 31, tzinfo=UTC)


def test_backtest_writes_json_and_markdown_each_pr_with_its_base_config(
    history: History, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(["backtest", "--repo", str(history.repo.path), "--out-dir", str(out),
                 "--concurrency", "3"])
    assert code == 0
    data = json.loads((out / "backtest.json").read_text())
    prs = {p["number"]: p for p in data["prs"]}
    assert list(prs) == [4, 3, 2, 1]
    # #2 touched billing before the override existed: its base had no config.
    assert prs[2]["lane"] != "red"
    # #4 was branched before #3 but merged after it; its base revision (the merge base) has
    # no config either, so the Action on #4 would not have used #3's rule.
    assert prs[4]["base"] != history.merges[-1]["first_parent"]
    assert prs[4]["lane"] != "red"
    assert prs[1]["lane"] == "green"
    for pr in prs.values():
        assert pr["seconds"] >= 0
        assert pr["error"] is None
    assert data["lanes"]["error"] == 0
    assert data["blocked_by_gate"] == sum(1 for p in prs.values() if p["lane"] == "red")
    md = (out / "backtest.md").read_text()
    assert "## What the gate would have blocked" in md
    assert "## Slowest reviews" in md
    assert "#1 Add a guide" in md
    stdout = capsys.readouterr()
    assert "4 pull requests merged into main (last 100)" in stdout.out
    assert "pr-review: [4/4]" in stdout.err  # one line per PR when stderr is not a terminal


def test_a_pr_is_reviewed_with_its_own_base_config(tmp_path: Path) -> None:
    h = build_history(tmp_path / "shop")
    h.merge_pr(5, "after", {"billing/pay.py": "def pay(x):\n    return x * 4\n"}, "Quadruple")
    out = tmp_path / "out"
    assert main(["backtest", "--repo", str(h.repo.path), "--out-dir", str(out), "--last",
                 "1"]) == 0
    data = json.loads((out / "backtest.json").read_text())
    (pr,) = data["prs"]
    assert (pr["number"], pr["lane"]) == (5, "red")
    assert any(f["why"] == "money moves here" or "money moves here" in f["factor"]
               for f in pr["factors"]), pr["factors"]
    md = (out / "backtest.md").read_text()
    assert "### #5 Quadruple" in md
    assert "money moves here" in md
    why = next(line for line in md.splitlines() if line.startswith("**Why red:**"))
    assert "billing/pay.py" in why
    assert "With `mode: gate`, 1 of 1 PRs (100%)" in md


def test_a_configuration_is_tried_on_the_history_before_it_is_committed(tmp_path: Path) -> None:
    h = build_history(tmp_path / "shop")
    h.merge_pr(5, "after", {"billing/pay.py": "def pay(x):\n    return x * 4\n"}, "Quadruple")
    trial = tmp_path / "trial.yml"
    trial.write_text("risk:\n  yellow_at_most:\n    - factor: money-movement\n"
                     "      paths: ['billing/**']\n      reason: prices are our product\n")
    out = tmp_path / "out"
    assert main(["backtest", "--repo", str(h.repo.path), "--out-dir", str(out), "--last", "1",
                 "--config", str(trial)]) == 0
    data = json.loads((out / "backtest.json").read_text())
    (pr,) = data["prs"]
    assert pr["lane"] == "yellow"  # red with the base revision's configuration (test above)
    assert data["configuration"] == f"--config {trial}, for every PR"
    md = (out / "backtest.md").read_text()
    assert f"with the configuration given by --config {trial}, for every PR" in md


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "no such file"),
        ("risk:\n  yellow_at_most:\n    - factor: money\n      reason: r\n",
         "unknown risk factor `money`"),
    ],
)
def test_a_bad_trial_configuration_stops_before_any_review(
    history: History, tmp_path: Path, text: str | None, message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    trial = tmp_path / "trial.yml"
    if text is not None:
        trial.write_text(text)
    assert main(["backtest", "--repo", str(history.repo.path), "--out-dir", str(tmp_path / "o"),
                 "--config", str(trial)]) == 1
    assert message in _one_line_error(capsys)
    assert not (tmp_path / "o").exists()


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_a_shallow_clone_is_refused_with_the_fix(
    history: History, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shallow = tmp_path / "shallow"
    GitRepo(tmp_path).run("clone", "-q", "--depth", "2", "--no-local",
                          history.repo.path.as_uri(), str(shallow))
    assert main(["backtest", "--repo", str(shallow)]) == 1
    assert "shallow clone" in _one_line_error(capsys)


def test_no_merges_is_a_one_line_error(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("direct push")
    assert main(["backtest", "--repo", str(git_repo.path)]) == 1
    assert "no merged pull requests" in _one_line_error(capsys)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--last", "3", "--since", "2024-01-01"], "--last and --since both given"),
        (["--since", "last week"], "is not a date"),
        (["--last", "0"], "at least 1"),
        (["--branch", "nope"], "is not a branch"),
        (["--concurrency", "0"], "--concurrency 0"),
    ],
)
def test_bad_input_is_a_one_line_error(
    history: History, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backtest", "--repo", str(history.repo.path), *argv]) == 1
    assert message in _one_line_error(capsys)


def test_not_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backtest", "--repo", str(tmp_path)]) == 1
    assert "is not a git repository" in _one_line_error(capsys)


def test_with_model_needs_a_key(history: History, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["backtest", "--repo", str(history.repo.path), "--with-model"]) == 1
    assert "ANTHROPIC_API_KEY" in _one_line_error(capsys)


def test_the_cost_estimate_counts_what_would_be_sent(history: History) -> None:
    prs = find_merged_prs(history.repo.path, "main", Selection(last=4))
    meter = CostMeter()
    price = {"claude-sonnet-4-6": ModelPrice(input=3.0, output=15.0)}

    def estimating(config: Config) -> tuple[StructuredModel | None, str | None]:
        return EstimatingModel(meter, price), None

    results = review_all(history.repo.path, prs, RunSettings(model_for=estimating),
                         Progress(len(prs), io.StringIO(), tty=False))
    assert all(r.error is None for r in results)
    total = meter.total
    # fresh-eyes reviews every PR; the challenger model has no price in this table.
    assert total.calls >= len(prs)
    assert total.input_tokens > 0
    assert total.output_tokens == total.calls * ASSUMED_OUTPUT_TOKENS
    assert total.cost_usd > 0
    assert "estimated cost $" in total.describe()


def test_progress_is_a_bar_on_a_terminal_and_lines_in_a_log() -> None:
    log, tty = io.StringIO(), io.StringIO()
    plain, bar = Progress(2, log, tty=False), Progress(2, tty, tty=True)
    for p in (plain, bar):
        p.finished("#1 A", "green")
        p.finished("#2 B", "red")
        p.close()
    assert log.getvalue().splitlines() == [
        "pr-review: [1/2] #1 A: green", "pr-review: [2/2] #2 B: red"
    ]
    text = tty.getvalue()
    assert text.count("\r") == 2
    assert text.endswith("\n")
    assert "2/2  green 1 red 1" in text


def test_with_model_states_the_estimate_first_then_makes_exactly_those_calls(
    history: History, tmp_path: Path
) -> None:
    import argparse

    from pr_review.backtest.command import run_backtest_command
    from tests.fakes.anthropic_server import (
        RecordedRequest,
        Reply,
        anthropic_server,
        by_tool,
        tool_reply,
    )

    def empty(request: RecordedRequest) -> Reply:
        return tool_reply(request, {"findings": [], "injection_attempts": []})

    err, out = io.StringIO(), io.StringIO()
    with anthropic_server(by_tool({"submit_review": empty, "submit_challenge": empty})) as server:
        env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": server.base_url}
        args = argparse.Namespace(repo=history.repo.path, branch="main", last=2, since=None,
                                  out_dir=tmp_path / "out", concurrency=2, with_model=True)
        assert run_backtest_command(args, env=env, stdout=out, stderr=err) == 0
        sent = len(server.messages_requests)
    lines = err.getvalue().splitlines()
    (estimate,) = [line for line in lines if "estimated cost $" in line]
    # The estimate is stated before the model run's progress starts.
    assert lines.index(estimate) < max(i for i, line in enumerate(lines) if "[2/2]" in line)
    calls = int(estimate.split(": ", 3)[3].split(" model calls")[0])
    assert calls == sent > 0
    data = json.loads((tmp_path / "out" / "backtest.json").read_text())
    assert data["with_model"] is True
    assert all(pr["cost_usd"] is not None and pr["cost_usd"] > 0 for pr in data["prs"])


def test_commit_titles_are_inert_in_the_report(tmp_path: Path) -> None:
    """A merged PR's title is its author's text: in backtest.md it can neither open an HTML
    comment (or forge our markers), nor ping, nor link, nor break the table."""
    h = build_history(tmp_path / "shop")
    hostile = "<!-- pr-review-guardrails:packet --> @everyone [ok](https://evil.example) | x"
    h.merge_pr(5, "evil", {"billing/`x`.py": "def pay(x):\n    return x * 5\n"}, hostile)
    out = tmp_path / "out"
    assert main(["backtest", "--repo", str(h.repo.path), "--out-dir", str(out), "--last",
                 "1"]) == 0
    md = (out / "backtest.md").read_text()
    assert "### #5 &lt;!-- pr-review-guardrails:packet --&gt;" in md
    assert "<!--" not in md
    assert "@everyone" not in md
    assert "](https://" not in md
    assert "evil.example) \\| x" in md  # the pipe is escaped: the table keeps its columns
    assert "`billing/'x'.py`" in md  # a backtick in a path cannot close its code span
    assert json.loads((out / "backtest.json").read_text())["prs"][0]["title"] == hostile


def test_a_title_cannot_drive_the_terminal_or_the_log() -> None:
    log = io.StringIO()
    Progress(1, log, tty=False).finished("#1 \x1b[2J\x1b]0;pwned\x07 title\r::error::x", "red")
    assert log.getvalue() == "pr-review: [1/1] #1 [2J ]0;pwned title ::error::x: red\n"
