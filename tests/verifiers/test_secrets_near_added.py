"""detect-secrets is given only the lines near added ones: same hits on added lines."""

from __future__ import annotations

from pathlib import Path

from pr_review.verifiers.secrets import CONTEXT_LINES, near_added

SOURCE = [
    "import os",
    'AWS = "AKIAIOSFODNN7EXAMPLQ"  # old, untouched',
    "",
    *[f"value_{i} = {i}" for i in range(20)],
    'password = "hunter2-but-longer-9f8e7d"',  # 24: added
    "# pragma: allowlist nextline secret",  # 25: untouched, but a filter's input
    'api_key = "sk_live_51HcR3tAbCdEfGhIjKlMnOpQr"',  # 26: added
    *[f"other_{i} = {i}" for i in range(20)],
    'token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"',  # 47: added
    'SECRET_KEY = "d41d8cd98f00b204e9800998ecf8427e"',  # 48: untouched, within context
    *[f"tail_{i} = {i}" for i in range(12)],
    'db_password = "correct-horse-battery-staple-42"',  # 61: untouched, far away
]
ADDED = (24, 26, 47)


def test_far_lines_are_blanked_and_numbers_kept() -> None:
    text = "\n".join(SOURCE)
    kept = near_added(text, ADDED).split("\n")
    assert len(kept) == len(SOURCE)
    for number, (old, new) in enumerate(zip(SOURCE, kept, strict=True), start=1):
        near = any(abs(number - a) <= CONTEXT_LINES for a in ADDED)
        assert new == (old if near or "pragma: allowlist" in old else "")


def _hits(path: Path) -> set[tuple[int, str]]:
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    with default_settings():
        return {(s.line_number, s.type) for s in scan_file(str(path))}


def test_detect_secrets_reports_the_same_hits_on_added_lines(tmp_path: Path) -> None:
    whole, near = tmp_path / "whole" / "app.py", tmp_path / "near" / "app.py"
    for p in (whole, near):
        p.parent.mkdir()
    text = "\n".join(SOURCE) + "\n"
    whole.write_text(text, encoding="utf-8")
    near.write_text(near_added(text, ADDED), encoding="utf-8")
    on_added = {h for h in _hits(whole) if h[0] in ADDED}
    assert on_added  # the fixture does plant secrets detect-secrets sees
    assert {h for h in _hits(near) if h[0] in ADDED} == on_added
    assert not {h for h in _hits(near) if h[0] == 61}  # far lines are not scanned
