"""Red by factor in ``backtest.md``, and the draft cap it offers to try (``backtest/caps.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from pr_review.backtest.caps import FactorTally, draft, folder_glob, tally
from pr_review.cli import main
from pr_review.config import parse_config
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import RiskFactor
from tests.backtest.history_repo import History
from tests.gitrepo import GitRepo

RED = FactorSeverity.RED


def _factor(name: str, *files: str, severity: FactorSeverity = RED) -> RiskFactor:
    return RiskFactor(factor=name, files=files, severity=severity, why="because")


class _PR:
    def __init__(self, lane: Lane | None, *factors: RiskFactor) -> None:
        self.lane = lane
        self.factors = factors


def test_folder_globs_keep_two_folders_and_refuse_anything_but_plain_names() -> None:
    assert folder_glob("cmd/cosign/cli/options/verify.go") == "cmd/cosign/**"
    assert folder_glob("lib/response.js") == "lib/**"
    assert folder_glob("index.js") == "index.js"
    for hostile in ('lib/"]\nrisk: x/a.js', "a b/c.js", "../etc/passwd", "lib/`x`/a.js",
                    "src/*/a.js"):
        assert folder_glob(hostile) is None, hostile


def test_a_factor_alone_on_two_prs_is_drafted_with_its_folders_most_first() -> None:
    prs = [
        _PR(Lane.RED, _factor("security-check-changed", "cmd/tool/cli/verify.go")),
        _PR(Lane.RED, _factor("security-check-changed", "cmd/tool/options/verify.go")),
        _PR(Lane.RED, _factor("security-check-changed", "pkg/sig/keys.go")),
        # red with another red factor: counted, but a cap on one alone would not move it
        _PR(Lane.RED, _factor("security-check-changed", "pkg/x/a.go"),
            _factor("sink-shell", "pkg/x/a.go")),
        # not red: not counted at all
        _PR(Lane.YELLOW, _factor("security-check-changed", "pkg/y/b.go")),
        _PR(None),
    ]
    (check, shell) = tally(prs)
    assert check == FactorTally("security-check-changed", red=4, alone=3,
                                folders=(("cmd/tool/**", 2), ("pkg/sig/**", 1)))
    assert (shell.factor, shell.red, shell.alone, shell.folders) == ("sink-shell", 1, 0, ())
    assert check.drafted
    assert not shell.drafted
    text = draft([check, shell])
    assert text is not None
    data = yaml.safe_load(text)
    (entry,) = data["risk"]["yellow_at_most"]
    assert entry["factor"] == "security-check-changed"
    assert entry["paths"] == ["cmd/tool/**", "pkg/sig/**"]
    # the draft is a configuration the product accepts as it is (to try with --config)
    config = parse_config(text, source="draft")
    assert config.risk.yellow_at_most[0].paths == ("cmd/tool/**", "pkg/sig/**")


def test_factors_that_mean_the_same_everywhere_and_overrides_are_never_drafted() -> None:
    prs = [_PR(Lane.RED, _factor(name, "src/a.py")) for name in
           ("secrets", "secrets", "ci-trust", "ci-trust", "override:billing/**",
            "override:billing/**", "reviewer-escalation", "reviewer-escalation")]
    tallies = tally(prs)
    assert {t.factor: t.alone for t in tallies} == {
        "secrets": 2, "ci-trust": 2, "override:billing/**": 2, "reviewer-escalation": 2}
    assert not any(t.drafted for t in tallies)
    assert draft(tallies) is None
    # one PR alone is not a pattern
    assert draft(tally([_PR(Lane.RED, _factor("sink-shell", "src/a.py"))])) is None


def _priced_history(path: Path) -> History:
    """Two squashed PRs whose only red evidence is money logic in ``billing/``."""
    h = History(GitRepo.init(path))
    h.push({"README.md": "# shop\n", "billing/pay.py": "def pay(x):\n    return x\n"},
           "initial")
    h.squash_pr(1, {"billing/pay.py": "def pay(amount, price):\n    total = amount * price\n"
                    "    refund = total - price\n    return refund\n"}, "Pay with refunds")
    h.squash_pr(2, {"billing/pay.py": "def pay(amount, price):\n    total = amount * price\n"
                    "    refund = total - price * 2\n    amount_due = refund + price\n"
                    "    return amount_due\n"}, "Charge twice")
    return h


def test_backtest_md_counts_red_by_factor_and_the_draft_turns_those_prs_yellow(
    tmp_path: Path,
) -> None:
    h = _priced_history(tmp_path / "shop")
    out = tmp_path / "out"
    assert main(["backtest", "--repo", str(h.repo.path), "--out-dir", str(out)]) == 0
    data = json.loads((out / "backtest.json").read_text())
    assert [p["lane"] for p in data["prs"]] == ["red", "red"]
    md = (out / "backtest.md").read_text()
    assert "## Red by factor" in md
    assert "| `money-movement` | 2 | 2 | `billing/**` (2) |" in md
    fragment = md.split("```yaml\n", 1)[1].split("```", 1)[0]
    trial = tmp_path / "trial.yml"
    trial.write_text(fragment)
    again = tmp_path / "again"
    assert main(["backtest", "--repo", str(h.repo.path), "--out-dir", str(again),
                 "--config", str(trial)]) == 0
    data = json.loads((again / "backtest.json").read_text())
    assert [p["lane"] for p in data["prs"]] == ["yellow", "yellow"]
    assert "## Red by factor" not in (again / "backtest.md").read_text()
