"""Rules carried as data, with their own examples: secret patterns, path safety, mypy options."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.sources.model import MemoryTree
from pr_review.verifiers.mypy_config import SAFE_OPTIONS, find_mypy_config, sanitized_ini
from pr_review.verifiers.secret_patterns import RULES, SecretRule, find_secrets
from pr_review.verifiers.workspace import safe_relpath, write_file


def rule_id(rule: SecretRule) -> str:
    return rule.kind


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_each_secret_rule_matches_its_examples(rule: SecretRule) -> None:
    for example in rule.matches:
        assert rule.pattern.search(example), example
        assert find_secrets(example), example
    for example in rule.does_not_match:
        # A rule with a check (an example host, base64 of user:password) may match the
        # expression and still reject the match: what counts is that it finds nothing.
        hits = [m for m in rule.pattern.finditer(example) if rule.check is None or rule.check(m)]
        assert hits == [], example
        assert not [s for s in find_secrets(example) if s.kind == rule.kind], example


def test_find_secrets_gives_spans_not_values() -> None:
    key = "AKIA" + "Q3EXAMPLE7WZ4NRT"
    text = f'aws = "{key}"'
    [match] = find_secrets(text)
    assert (match.kind, text[match.start : match.end]) == ("aws_access_key_id", key)


@pytest.mark.parametrize(
    ("path", "safe"),
    [
        ("app/x.py", True),
        (".env", True),
        ("a/.hidden/b", True),
        ("../etc/passwd", False),
        ("a/../../b", False),
        ("/etc/passwd", False),
        ("a//b", False),
        ("./a", False),
        ("", False),
        ("a\0b", False),
        ("a\\..\\b", False),
    ],
)
def test_paths_outside_the_checkout_are_refused(path: str, safe: bool) -> None:
    assert (safe_relpath(path) is not None) is safe


def test_write_file_never_leaves_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    assert write_file(root, "ok/x.txt", "x")
    assert not write_file(root, "../escape.txt", "x")
    assert not (root.parent / "escape.txt").exists()


PYPROJECT = """
[tool.mypy]
strict = true
plugins = ["repo_plugin.evil"]
python_executable = "./run-me"
mypy_path = "/etc"
html_report = "/tmp/out"
warn_unreachable = true

[[tool.mypy.overrides]]
module = ["pkg.legacy.*", "other"]
ignore_errors = true
plugins = "also.not"
"""

INI = """
[mypy]
disallow_untyped_defs = True
plugins = repo_plugin
junit_xml = /tmp/junit.xml

[mypy-tests.*]
disallow_untyped_defs = False
"""


def test_untrusted_mypy_config_keeps_checks_and_drops_what_runs_or_writes() -> None:
    config = find_mypy_config(MemoryTree({"pyproject.toml": PYPROJECT}))
    assert config is not None
    ini = sanitized_ini(config)
    assert "strict = True" in ini
    assert "warn_unreachable = True" in ini
    assert "[mypy-pkg.legacy.*]" in ini
    assert "[mypy-other]" in ini
    for forbidden in ("plugins", "python_executable", "mypy_path", "report", "run-me"):
        assert forbidden not in ini


def test_ini_config_is_found_and_sanitized() -> None:
    config = find_mypy_config(MemoryTree({"mypy.ini": INI, "pyproject.toml": PYPROJECT}))
    assert config is not None
    assert config.path == "mypy.ini"  # mypy's own precedence
    ini = sanitized_ini(config)
    assert "[mypy-tests.*]\ndisallow_untyped_defs = False" in ini
    assert "plugins" not in ini
    assert "junit" not in ini


@pytest.mark.parametrize(
    ("files", "configured"),
    [
        ({"pyproject.toml": "[tool.ruff]\n"}, False),
        ({"setup.cfg": "[metadata]\nname = x\n"}, False),
        ({"setup.cfg": "[mypy]\nstrict = True\n"}, True),
        ({".mypy.ini": "[mypy]\n"}, True),
        ({"pyproject.toml": "not [valid toml"}, False),
    ],
)
def test_mypy_runs_only_when_configured(files: dict[str, str], configured: bool) -> None:
    assert (find_mypy_config(MemoryTree(files)) is not None) is configured


def test_safe_options_hold_nothing_that_imports_runs_or_writes() -> None:
    risky = {"plugins", "python_executable", "mypy_path", "cache_dir", "junit_xml", "files"}
    assert not risky & SAFE_OPTIONS
    assert not {o for o in SAFE_OPTIONS if "report" in o}
