"""Whether a repository configures mypy, and a safe copy of that configuration.

mypy runs only when the repository configures it (``[tool.mypy]`` in pyproject.toml,
``mypy.ini``, ``.mypy.ini``, or ``[mypy]`` in setup.cfg): its findings are only meaningful
under the strictness the project chose.

A mypy configuration can make mypy execute repository-named code: ``plugins`` imports
modules (a path into the checkout works), ``python_executable`` is run to find
site-packages, and report options write files. So it is always rewritten, in trusted mode
too: only options on :data:`SAFE_OPTIONS` (checks, strictness flags, how imports are
followed) are copied, global and per-module, into an ini file in the workspace. A plugin is
never loaded: it would run repository-named code, and the project's plugins (pydantic's,
Django's) are not installed beside the verifier anyway, so mypy would stop on the import.
"""

from __future__ import annotations

import configparser
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pr_review.sources.model import RepoTree

SAFE_OPTIONS = frozenset(
    {
        "python_version", "platform", "always_true", "always_false",
        "ignore_missing_imports", "follow_untyped_imports", "namespace_packages",
        "follow_imports", "follow_imports_for_stubs",
        "explicit_package_bases",
        "disallow_any_unimported", "disallow_any_expr", "disallow_any_decorated",
        "disallow_any_explicit", "disallow_any_generics", "disallow_subclassing_any",
        "disallow_untyped_calls", "untyped_calls_exclude", "disallow_untyped_defs",
        "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators",
        "implicit_optional", "strict_optional",
        "warn_redundant_casts", "warn_unused_ignores", "warn_no_return", "warn_return_any",
        "warn_unreachable", "ignore_errors",
        "allow_untyped_globals", "allow_redefinition", "allow_redefinition_new",
        "local_partial_types", "disable_error_code", "enable_error_code", "extra_checks",
        "implicit_reexport", "strict_concatenate", "strict_equality", "strict_bytes", "strict",
        "enable_incomplete_feature",
    }
)  # fmt: skip
"""Options that only change what mypy checks; nothing here imports, runs or writes."""


@dataclass(frozen=True)
class MypyConfig:
    """Where the repository's mypy configuration is and what it says."""

    path: str
    """Repository-relative file holding it."""
    global_options: Mapping[str, Any]
    per_module: tuple[tuple[str, Mapping[str, Any]], ...]
    """``(module pattern, options)`` for each override section."""


def find_mypy_config(tree: RepoTree) -> MypyConfig | None:
    """The repository's mypy configuration, in mypy's own precedence order, or None."""
    for name in ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"):
        text = tree.read(name)
        if text is None:
            continue
        found = _from_toml(text, name) if name.endswith(".toml") else _from_ini(text, name)
        if found is not None:
            return found
    return None


def _toml(text: str) -> dict[str, Any]:
    """A TOML file's tables; empty when it does not parse (the repository's problem, not ours)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _from_toml(text: str, name: str) -> MypyConfig | None:
    section = _toml(text).get("tool", {}).get("mypy")
    if not isinstance(section, dict):
        return None
    overrides = []
    for item in section.get("overrides", ()):
        if not isinstance(item, dict):
            continue
        modules = item.get("module", ())
        for module in [modules] if isinstance(modules, str) else modules:
            opts = {k: v for k, v in item.items() if k != "module"}
            overrides.append((str(module), opts))
    options = {k: v for k, v in section.items() if k != "overrides"}
    return MypyConfig(name, options, tuple(overrides))


def _from_ini(text: str, name: str) -> MypyConfig | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=name)
    except configparser.Error:
        return None
    if not parser.has_section("mypy"):
        return None
    overrides = [
        (module.strip(), dict(parser.items(section)))
        for section in parser.sections()
        if section.startswith("mypy-")
        for module in section.removeprefix("mypy-").split(",")
    ]
    return MypyConfig(name, dict(parser.items("mypy")), tuple(overrides))


def _ini_value(value: Any) -> str | None:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, (str, int, float)):
        return str(value).replace("\n", " ")
    return None


def _safe_lines(options: Mapping[str, Any]) -> list[str]:
    lines = []
    for key, value in options.items():
        norm = key.replace("-", "_").strip()
        text = _ini_value(value)
        if norm in SAFE_OPTIONS and text is not None:
            lines.append(f"{norm} = {text}")
    return lines


_FLOOR = re.compile(r"(?:>=|~=|\^|==)\s*(\d+)\.(\d+)")


def python_floor(tree: RepoTree) -> tuple[int, int] | None:
    """The oldest Python the repository says it supports: ``requires-python`` in
    ``pyproject.toml`` (or Poetry's ``python`` dependency), ``python_requires`` in
    ``setup.cfg``; None when neither names a lower bound. Examples: ``FLOOR_EXAMPLES``."""
    text = tree.read("pyproject.toml")
    if text is not None:
        data = _toml(text)
        project = data.get("project")
        poetry = data.get("tool", {}).get("poetry", {}).get("dependencies")
        for value in (
            project.get("requires-python") if isinstance(project, dict) else None,
            poetry.get("python") if isinstance(poetry, dict) else None,
        ):
            floor = _floor_of(value)
            if floor is not None:
                return floor
    text = tree.read("setup.cfg")
    if text is not None:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text, source="setup.cfg")
        except configparser.Error:
            return None
        return _floor_of(parser.get("options", "python_requires", fallback=None))
    return None


def _floor_of(value: object) -> tuple[int, int] | None:
    match = _FLOOR.search(value) if isinstance(value, str) else None
    return (int(match.group(1)), int(match.group(2))) if match else None


FLOOR_EXAMPLES: tuple[tuple[str, str, tuple[int, int] | None], ...] = (
    ("pyproject.toml", '[project]\nname = "m"\nrequires-python = ">=3.12"\n', (3, 12)),
    ("pyproject.toml", '[project]\nrequires-python = ">= 3.13, <4"\n', (3, 13)),
    ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.12"\n', (3, 12)),
    ("setup.cfg", "[options]\npython_requires = >=3.9\n", (3, 9)),
    ("pyproject.toml", '[project]\nrequires-python = "<4"\n', None),  # no lower bound
    ("pyproject.toml", '[project]\nname = "m"\n', None),
)
"""Each: a file, its text, the floor read."""


def sanitized_ini(
    config: MypyConfig, mypy_path: tuple[str, ...] = (), floor: tuple[int, int] | None = None
) -> str:
    """An ini file with only the safe options of ``config`` (global and per module), and
    ``mypy_path`` (directories relative to where mypy runs, chosen by us, not the repository).

    ``floor``: the oldest Python the repository supports (:func:`python_floor`). Unless the
    configuration names a ``python_version``, mypy checks for the Python it runs on; for a
    repository that needs a newer one its CI's mypy runs on that, so we target it too
    (mitmproxy's ``def _require_auth[**P, R](...)`` is no syntax error on Python 3.12)."""
    out = ["[mypy]", *_safe_lines(config.global_options)]
    configured = {k.replace("-", "_").strip() for k in config.global_options}
    if "python_version" not in configured and floor is not None and floor > sys.version_info[:2]:
        out.append(f"python_version = {floor[0]}.{floor[1]}")
    if "strict_bytes" not in configured:
        # mypy 2 made strict bytes the default; the repository's own (pinned, often older)
        # mypy treats bytearray as bytes. Unless the configuration asks for it, so do we:
        # `data = b""; data = bytearray()` is not a finding a passing CI would show.
        out.append("strict_bytes = False")
    safe_roots = [r for r in mypy_path if r and not any(c in r for c in ",\n\r")]
    if safe_roots:
        out.append("mypy_path = " + ", ".join(safe_roots))
    for module, options in config.per_module:
        if not module or any(c in module for c in "[]\n"):
            continue
        out += ["", f"[mypy-{module}]", *_safe_lines(options)]
    return "\n".join(out) + "\n"
