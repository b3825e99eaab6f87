"""Budgeted analysis mode: a diff beyond ``oversize.full_analysis_max_lines``."""

from __future__ import annotations

from pr_review.config import Config, parse_config
from pr_review.evidence.budgeted import BUDGETED, LINES_PER_TRIGGER, scan_all_budgeted
from pr_review.evidence.build import build_pack
from pr_review.evidence.content import scan_all
from pr_review.schema.enums import FactorSeverity, Lane
from pr_review.schema.pack import EvidencePack
from pr_review.sources.diff import FileDiff, FileStatus

from .helpers import file_diff, pull_request

# Risk size limits far above the diff: the lane must be red from the budget alone.
BUDGET = (
    "oversize:\n  full_analysis_max_lines: 250\n  max_changed_lines: 100000\n"
    "  max_diff_tokens: 10000000\n"
    "risk:\n  large_diff_lines: 100000\n  very_large_diff_lines: 200000\n"
)
SECRET = 'AWS_KEY_ID = "AKIAZ3MXQ7P2LRT5VW4N"'
CHECK = "    if not has_permission(user, 'refund'):"
DDL = '    op.add_column("users", sa.Column("age", sa.Integer()))'


def _filler(n: int, word: str = "value") -> list[str]:
    return [f"    {word}_{i} = compute_{i}({word}_{i - 1})" for i in range(n)]


def _large_change() -> list[FileDiff]:
    """Files of filler with one planted signal each, at known new/old line numbers."""
    secret_lines = [*_filler(90, "key"), SECRET, *_filler(30)]
    return [
        file_diff("src/app/settings_loader.py", secret_lines, start=11),
        file_diff("src/api/refunds.py", _filler(60), [*_filler(40), CHECK, *_filler(5)]),
        file_diff("src/app/schema_change.py", [*_filler(70), DDL], status=FileStatus.ADDED),
        file_diff("docs/setup.md", ["Configure it:", SECRET]),
    ]


def _pack(config: Config) -> EvidencePack:
    return build_pack(pull_request(_large_change()), config)


def _budgeted() -> EvidencePack:
    pack = _pack(parse_config(BUDGET, source="c.yml"))
    assert pack.diff.oversize.analysis == "budgeted"
    return pack


def _added_text(files: list[FileDiff], path: str, line: int) -> str:
    f = next(f for f in files if f.path == path)
    return dict(pair for h in f.hunks for pair in h.added)[line]


def test_mode_is_recorded_and_the_blocker_says_so() -> None:
    pack = _pack(parse_config(BUDGET, source="c.yml"))
    assert pack.diff.oversize.analysis == "budgeted"
    assert pack.diff.oversize.oversized
    assert [b.kind for b in pack.blockers] == ["oversized-diff"]
    assert "file level" in pack.blockers[0].message
    assert "line-level review" in pack.blockers[0].message


def test_below_the_limit_the_analysis_is_full() -> None:
    pack = _pack(Config())
    assert pack.diff.oversize.analysis == "full"
    assert all("file level" not in b.message for b in pack.blockers)


def test_lane_is_red_by_size_even_when_size_factors_would_not_fire() -> None:
    pack = _budgeted()
    assert pack.risk.lane is Lane.RED
    size = [f for f in pack.risk.factors if f.factor == "beyond-full-analysis"]
    assert [f.severity for f in size] == [FactorSeverity.RED]
    assert set(size[0].files) == {f.path for f in _large_change()}


def test_content_factors_name_the_files_carrying_the_signal() -> None:
    pack = _budgeted()
    by_name = {f.factor: set(f.files) for f in pack.risk.factors}
    assert {"src/app/settings_loader.py", "docs/setup.md"} <= by_name["secrets"]
    assert by_name["auth-permission"] == {"src/api/refunds.py"}
    assert by_name["migration"] == {"src/app/schema_change.py"}


def test_hotspots_point_at_the_planted_lines() -> None:
    files = _large_change()
    pack = _budgeted()
    assert pack.hotspots
    planted = {"secrets": "AKIA", "data-migration": "op.add_column"}
    for spot in pack.hotspots:
        text = _added_text(files, spot.file, spot.line_start)
        assert planted[spot.category] in text
    spots = {(h.file, h.category): h.line_start for h in pack.hotspots}
    assert spots[("src/app/settings_loader.py", "secrets")] == 11 + 90
    assert spots[("src/app/schema_change.py", "data-migration")] == 1 + 70


def test_a_frequent_trigger_does_not_hide_a_rare_one() -> None:
    lines = [f'    key_{i} = "short"' for i in range(10 * LINES_PER_TRIGGER)] + [SECRET]
    scans = scan_all_budgeted([file_diff("src/a.py", lines)], frozenset({"src/a.py"}))
    assert [h.line for h in scans["src/a.py"].added["secrets"]] == [len(lines)]


def test_same_hits_as_the_full_scan_when_the_budget_is_not_reached() -> None:
    files = [
        file_diff("src/a.py", [SECRET, "x = 1", DDL], ["y = 2", CHECK]),
        file_diff("README.md", ["text", SECRET]),
    ]
    code = frozenset({"src/a.py"})
    full, budgeted = scan_all(files, code), scan_all_budgeted(files, code)
    for path in ("src/a.py", "README.md"):
        for side in ("added", "removed"):
            want = {k: v for k, v in getattr(full[path], side).items() if k in BUDGETED}
            assert getattr(budgeted[path], side) == want
