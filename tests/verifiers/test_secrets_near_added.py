"""detect-secrets is given only the lines near added ones: same hits on added lines."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pr_review.verifiers.secrets import CONTEXT_LINES, compact, could_hit, near_added

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


def test_lines_no_plugin_can_match_are_blanked_and_the_hits_stay_the_same(
    tmp_path: Path,
) -> None:
    hit = could_hit()
    assert hit is not None  # the default plugins are all of known kinds
    text = "\n".join(SOURCE) + "\n"
    every = tuple(range(1, len(SOURCE) + 1))
    filtered = near_added(text, None, hit)
    assert filtered.split("\n")[3] == ""  # `value_0 = 0`: nothing any plugin could report
    whole, kept = tmp_path / "whole" / "app.py", tmp_path / "kept" / "app.py"
    for p in (whole, kept):
        p.parent.mkdir()
    whole.write_text(text, encoding="utf-8")
    kept.write_text(filtered, encoding="utf-8")
    assert _hits(kept) == _hits(whole)
    assert {n for n, _ in _hits(whole)} <= set(every)


_LINES = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=80),
    st.builds(
        lambda key, quote, value: f"{key} = {quote}{value}{quote}",
        st.sampled_from(["x", "password", "api_key", "token", "my_secret", "url", "AUTH"]),
        st.sampled_from(["'", '"']),
        st.text(alphabet="abcdefABCDEF0123456789+/=_-xyzQRS", min_size=0, max_size=40),
    ),
)


def _reported_in_a_file(lines: list[str]) -> set[int]:
    """Line numbers detect-secrets reports when ``lines`` are a Python file (the path the
    verifier uses: a file scan, not the ad-hoc line scan, which is eager for entropy)."""
    import tempfile

    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "app.py"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        with default_settings():
            return {s.line_number for s in scan_file(str(path))}


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(_LINES, min_size=1, max_size=5))
def test_every_line_detect_secrets_reports_passes_the_prefilter(lines: list[str]) -> None:
    hit = could_hit()
    assert hit is not None
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    for number in _reported_in_a_file(lines):
        assert hit(lines[number - 1]), lines[number - 1]


def test_the_rule_examples_that_detect_secrets_reports_pass_the_prefilter() -> None:
    from pr_review.verifiers.secret_patterns import RULES

    hit = could_hit()
    assert hit is not None
    lines = [f'value = "{example}"' for rule in RULES for example in rule.matches]
    lines += [example for rule in RULES for example in rule.matches]
    lines = [line for line in lines if "\n" not in line]
    reported = _reported_in_a_file(lines)
    assert len(reported) > 10  # detect-secrets does see many of them
    assert all(hit(lines[n - 1]) for n in reported)


def _hits_of_text(text: str) -> set[tuple[int, str]]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "app.py"
        path.write_text(text, encoding="utf-8")
        return _hits(path)


def _compacted_hits(text: str, added: tuple[int, ...] | None) -> set[tuple[int, str]]:
    written, numbers = compact(near_added(text, added, could_hit()))
    return {(numbers[n - 1], kind) for n, kind in _hits_of_text(written) if numbers[n - 1]}


def test_a_compacted_file_reports_the_same_hits_at_their_original_lines() -> None:
    text = "\n".join(SOURCE) + "\n"
    whole = _hits_of_text(text)
    assert {h for h in _compacted_hits(text, ADDED) if h[0] in ADDED} == {
        h for h in whole if h[0] in ADDED
    }
    assert _compacted_hits(text, None) == whole
    written, _ = compact(near_added(text, ADDED, could_hit()))
    assert len(written.splitlines()) < len(SOURCE) // 3  # most lines are never handed over


def test_an_allowlist_pragma_speaks_only_for_the_line_that_followed_it() -> None:
    secret_line = 'api_key = "sk_live_51HcR3tAbCdEfGhIjKlMnOpQr"'
    text = "\n".join(
        ["# pragma: allowlist nextline secret", "x = 1", secret_line, "y = 2", "", secret_line]
    )
    assert _compacted_hits(text, None) == _hits_of_text(text)
    assert any(n == 3 for n, _ in _hits_of_text(text))  # the pragma did not cover line 3


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.one_of(_LINES, st.just(""), st.just("# pragma: allowlist nextline secret")),
        min_size=1,
        max_size=12,
    )
)
def test_compaction_keeps_every_hit_of_a_new_file(lines: list[str]) -> None:
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    text = "\n".join(lines) + "\n"
    assert _compacted_hits(text, None) == _hits_of_text(text)
