"""Configuration loading: defaults, validation, and one clear message per bad file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.config import Config, load_config, parse_config
from pr_review.errors import ConfigError
from pr_review.schema.enums import Lane

SOURCE = ".pr-review/config.yml"


def test_missing_file_means_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.yml") == Config()


def test_empty_file_means_defaults() -> None:
    assert parse_config("", source=SOURCE) == Config()
    assert parse_config("# only a comment\n", source=SOURCE) == Config()


def test_valid_file_is_read() -> None:
    config = parse_config(
        """
subsystems:
  billing: ["src/billing/**"]
risk:
  overrides:
    - paths: ["infra/**"]
      lane: red
      reason: production infrastructure
verifiers:
  timeout_seconds: 30
  custom:
    - name: unit-tests
      argv: [pytest, -q]
      format: none
""",
        source=SOURCE,
    )
    assert config.subsystems == {"billing": ("src/billing/**",)}
    assert config.risk.overrides[0].raise_to is Lane.RED
    assert config.verifiers.timeout_seconds == 30
    assert config.verifiers.custom[0].argv == ("pytest", "-q")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bogus: 1\n", "unknown key `bogus` (allowed here: subsystems, risk,"),
        ("risk:\n  bogus: 2\n", "unknown key `risk.bogus` (allowed here: overrides,"),
        (
            "risk:\n  overrides:\n    - paths: [a]\n      lane: green\n",
            "`risk.overrides[0].lane`: Input should be 'yellow' or 'red'",
        ),
        (
            "verifiers:\n  custom:\n    - name: x\n      argv: [a]\n      zzz: 1\n",
            "unknown key `verifiers.custom[0].zzz` (allowed here: name, argv,",
        ),
        (
            "verifiers:\n  timeout_seconds: -1\n",
            "`verifiers.timeout_seconds`: Input should be greater",
        ),
        ("- a list\n", "the top level must be a mapping"),
        ("risk: [unclosed\n", "not valid YAML at line"),
    ],
)
def test_bad_file_names_file_key_and_allowed(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, source=SOURCE)
    message = str(info.value)
    assert message.startswith(f"{SOURCE}: ")
    assert expected in message
    assert "\n" not in message


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.yml"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)


def test_invalid_subsystem_glob_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"`subsystems.api\[0\]`.*unbalanced"):
        parse_config('subsystems:\n  api: ["src/[api"]\n', source=SOURCE)
