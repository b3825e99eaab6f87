"""Which touched Python files the repository's own linting leaves out, read as data.

ruff honours a repository's own ruff configuration (``exclude``/``extend-exclude``, with
``--force-exclude``). Many repositories lint through pre-commit or with flake8 instead, and
leave folders of sample code out on purpose: black's ``tests/data/`` holds the Python its
formatter is tested on, undefined names and redefinitions by design, and its
``.pre-commit-config.yaml`` says ``exclude: ^(profiling/|tests/data/)`` (38 findings on 7 of
its PRs before this was read; holdout56). Read from the base branch's configuration whatever
``tool_config`` says (its regular expressions run in this process, so none comes from a PR),
never executed:

- ``.pre-commit-config.yaml``: the top-level ``exclude`` and ``files`` (regular expressions
  searched in the ``/``-separated path, as pre-commit does) apply to every hook; a Python lint
  hook's own ``files``/``exclude`` (flake8, ruff, pylint, pyflakes) say what that linter reads,
  and a file none of the repository's lint hooks reads is out.
- ``[flake8]`` in ``.flake8``, ``setup.cfg`` or ``tox.ini``, only when the repository has no
  ruff configuration of its own (then its ruff settings decide): ``exclude`` and
  ``extend-exclude``, comma-separated patterns matched as flake8 matches them while it walks
  the tree: a pattern without ``/`` against each part of the path, one with ``/`` against the
  path and each folder above it (``fnmatch``).

A pattern that does not compile, or is longer than :data:`MAX_PATTERN` characters, is not
used, and said so in :attr:`LintScope.problems`.

Examples (run by the test suite, ``LINT_SCOPE_EXAMPLES``): (file, its text, path, out).
"""

from __future__ import annotations

import configparser
import fnmatch
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pr_review import yamlfiles
from pr_review.sources.model import RepoTree

PRE_COMMIT = ".pre-commit-config.yaml"
FLAKE8_FILES = ("setup.cfg", "tox.ini", ".flake8")
"""Where flake8 looks for its section, in its order: the first file holding ``[flake8]``."""
LINT_HOOKS = frozenset({"flake8", "ruff", "ruff-check", "pylint", "pyflakes"})
"""pre-commit hook ids of Python linters (the ruff verifier stands in for them); formatters
(``ruff-format``, ``black``) and type checkers decide nothing about lint scope."""
MAX_PATTERN = 1000


@dataclass(frozen=True)
class _Hook:
    files: re.Pattern[str] | None
    exclude: re.Pattern[str] | None

    def reads(self, path: str) -> bool:
        return (self.files is None or self.files.search(path) is not None) and (
            self.exclude is None or self.exclude.search(path) is None
        )


@dataclass(frozen=True)
class LintScope:
    """The repository's lint scope: :meth:`why_out` says why a file is outside it."""

    exclude: re.Pattern[str] | None = None
    files: re.Pattern[str] | None = None
    hooks: tuple[_Hook, ...] = ()
    globs: tuple[tuple[str, str], ...] = ()
    """flake8 patterns, each with the file that sets it."""
    problems: tuple[str, ...] = ()

    def why_out(self, path: str) -> str | None:
        """Why the repository's linting does not read ``path`` (None: it does)."""
        if self.exclude is not None and self.exclude.search(path):
            return f"excluded by {PRE_COMMIT} (`exclude: {self.exclude.pattern}`)"
        if self.files is not None and not self.files.search(path):
            return f"outside {PRE_COMMIT}'s `files: {self.files.pattern}`"
        if self.hooks and not any(hook.reads(path) for hook in self.hooks):
            return f"read by none of {PRE_COMMIT}'s lint hooks"
        for where, pattern in self.globs:
            if flake8_excludes(pattern, path):
                return f"excluded by flake8 in {where} (`{pattern}`)"
        return None


def flake8_excludes(pattern: str, path: str) -> bool:
    """Whether flake8, walking the repository, leaves ``path`` out for ``pattern``."""
    pattern = pattern.strip().removeprefix("./").rstrip("/")
    if not pattern:
        return False
    parts = PurePosixPath(path).parts
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(part, pattern) for part in parts)
    return any(
        fnmatch.fnmatchcase("/".join(parts[:n]), pattern) for n in range(1, len(parts) + 1)
    )


def _regex(value: Any, where: str, problems: list[str]) -> re.Pattern[str] | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_PATTERN:
        problems.append(f"{where} is not a pattern of at most {MAX_PATTERN} characters: unused")
        return None
    try:
        return re.compile(value)
    except (re.error, RecursionError, OverflowError) as e:
        problems.append(f"{where} does not compile ({e}): unused")
        return None


def _pre_commit(text: str, problems: list[str]) -> dict[str, Any]:
    try:
        data = yamlfiles.load(text)
    except yamlfiles.YAMLError:
        problems.append(f"{PRE_COMMIT} is not valid YAML: its scope is unused")
        return {}
    if not isinstance(data, dict):
        return {}
    found: dict[str, Any] = {
        "exclude": _regex(data.get("exclude"), f"{PRE_COMMIT} `exclude`", problems),
        "files": _regex(data.get("files") or None, f"{PRE_COMMIT} `files`", problems),
    }
    hooks: list[_Hook] = []
    for hook in pre_commit_hooks(data):
        if hook.get("id") not in LINT_HOOKS:
            continue
        where = f"{PRE_COMMIT} hook `{hook['id']}`"
        hooks.append(_Hook(
            _regex(hook.get("files") or None, f"{where} `files`", problems),
            _regex(hook.get("exclude"), f"{where} `exclude`", problems),
        ))  # fmt: skip
    found["hooks"] = tuple(hooks)
    return found


def pre_commit_hooks(data: Any) -> list[dict[str, Any]]:
    """Every hook (a mapping) of a parsed ``.pre-commit-config.yaml``, in order."""
    return [
        hook for repo in _listed(data.get("repos") if isinstance(data, dict) else None)
        if isinstance(repo, dict) for hook in _listed(repo.get("hooks"))
        if isinstance(hook, dict)
    ]  # fmt: skip


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _flake8(tree: RepoTree, problems: list[str]) -> tuple[tuple[str, str], ...]:
    for name in FLAKE8_FILES:
        text = tree.read(name)
        if text is None:
            continue
        parser = configparser.RawConfigParser(strict=False)
        try:
            parser.read_string(text, source=name)
        except configparser.Error:
            problems.append(f"{name} cannot be read as INI: its flake8 scope is unused")
            continue
        if not parser.has_section("flake8"):
            continue
        return tuple(
            (name, pattern.strip())
            for key in ("exclude", "extend-exclude", "extend_exclude")
            for pattern in parser.get("flake8", key, fallback="").replace("\n", ",").split(",")
            if pattern.strip()
        )
    return ()


def lint_scope(tree: RepoTree, ruff_configured: bool) -> LintScope:
    """The lint scope the repository's configuration in ``tree`` declares."""
    problems: list[str] = []
    text = tree.read(PRE_COMMIT)
    found = _pre_commit(text, problems) if text is not None else {}
    globs = () if ruff_configured else _flake8(tree, problems)
    return LintScope(
        exclude=found.get("exclude"),
        files=found.get("files"),
        hooks=found.get("hooks", ()),
        globs=globs,
        problems=tuple(problems),
    )


_BLACK = "exclude: ^(profiling/|tests/data/)\nrepos:\n  - repo: https://github.com/pycqa/flake8\n"
_FLAKE8_HOOK = _BLACK + "    rev: 7.3.0\n    hooks:\n      - id: flake8\n"
_TWO_HOOKS = (
    "repos:\n  - repo: x\n    hooks:\n      - id: flake8\n        exclude: ^tests/\n"
    "      - id: pylint\n        files: ^tests/\n"
)
LINT_SCOPE_EXAMPLES: tuple[tuple[str, str, str, bool], ...] = (
    # black: the top-level exclude names its formatter's sample code, and its flake8 hook
    # leaves out a vendored parser
    (PRE_COMMIT, _FLAKE8_HOOK, "tests/data/cases/a.py", True),
    (PRE_COMMIT, _FLAKE8_HOOK, "tests/test_black.py", False),
    (PRE_COMMIT, _BLACK + "    hooks:\n      - id: flake8\n        exclude: ^src/blib2to3/\n",
     "src/blib2to3/pgen2/driver.py", True),
    # a formatter hook's exclusion says nothing about lint
    (PRE_COMMIT, "repos:\n  - repo: x\n    hooks:\n      - id: black\n        exclude: ^docs/\n",
     "docs/conf.py", False),
    # one lint hook reads what another leaves out
    (PRE_COMMIT, _TWO_HOOKS, "tests/test_a.py", False),
    (PRE_COMMIT, "files: ^src/\nrepos: []\n", "scripts/release.py", True),
    # flake8 walks the tree: a bare name matches any folder, a path its folders
    (".flake8", "[flake8]\nexclude = .git,__pycache__,build\n", "build/lib/a.py", True),
    (".flake8", "[flake8]\nexclude = .git,\n    tests/fixtures\n", "tests/fixtures/bad/x.py", True),
    ("setup.cfg", "[flake8]\nextend-exclude = docs/*.py\n", "docs/conf.py", True),
    ("tox.ini", "[flake8]\nexclude = build\n", "src/builder.py", False),
    ("setup.cfg", "[metadata]\nname = x\n", "build/a.py", False),
)  # fmt: skip
"""Configuration files, and whether a path is outside the lint scope they declare (the
repository having no ruff configuration of its own)."""
