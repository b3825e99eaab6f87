"""Which files the repository's own mypy run checks, and what mypy needs to resolve imports.

Read from the configuration as data (:class:`~.mypy_config.MypyConfig`), never executed:

- ``files`` (and ``packages``/``modules``): what a plain ``mypy`` run in the repository checks.
  Without them the repository names its targets on a command line: the ones it writes down
  (Makefile, tox, nox, pre-commit, workflows, scripts: :mod:`.mypy_commands`) are the scope
  when every one can be read; otherwise every touched file is in scope.
- ``exclude``: regular expressions (``re.search``) over the ``/``-separated path; a directory
  matches as ``dir/``, as in mypy's own discovery (which it applies to every directory it
  walks, so to the repository's command line too; a file ``files`` names by its own path is
  checked anyway, as mypy does).
- a per-module section with ``ignore_errors = true``: the repository silenced that module.
- a per-module ``follow_imports = skip`` or ``silent``: the module is only ever seen when
  imported, and its errors are not reported; out of scope unless ``files`` names it.

A touched file out of scope is not given to mypy at all, and said so in the run's reason.

Import resolution: mypy checks only the touched files, but the project's own modules they
import must be on disk, or ``from . import types`` is an error the repository never sees.
:func:`resolution_files` names the Python files of the packages the touched files belong to
and of the directories ``files`` names; :func:`search_roots` the directories mypy must
search (the roots a plain ``mypy`` run adds for the files it discovers).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pr_review.verifiers.mypy_commands import MypyCommands, relative_path
from pr_review.verifiers.mypy_config import MypyConfig

PY_SUFFIXES = (".py", ".pyi")


def _entries(value: Any) -> tuple[str, ...]:
    """A list option as written in TOML (a list or a string) or INI (comma-separated)."""
    items: Iterable[Any]
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return ()
    return tuple(s for s in (str(i).strip() for i in items) if s)


def _truthy(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("true", "1", "yes", "on")


def _norm(entry: str) -> str:
    """A ``files`` entry as a repository-relative path (:func:`relative_path`; a Windows
    separator read as ``/``)."""
    return relative_path(entry.replace("\\", "/"))


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A ``glob.glob(recursive=True)`` pattern as a regex over a whole relative path."""
    out = []
    parts = pattern.split("/")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        piece = "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in part)
        out.append(piece if last else piece + "/")
    return re.compile("".join(out))


@dataclass(frozen=True)
class Section:
    """One per-module section: its pattern and the options it sets (names normalized)."""

    pattern: str
    options: Mapping[str, Any]

    @property
    def rank(self) -> tuple[int, int]:
        """mypy's precedence: structured ``a.*`` (more specific wins), then the exact name,
        then unstructured globs (``a.*.c``) applied on top."""
        body = self.pattern.removesuffix(".*")
        if "*" in body:
            return (2, 0)
        if self.pattern.endswith(".*"):
            return (0, body.count(".") + 1)
        return (1, 0)

    def matches(self, module: str) -> bool:
        """Whether the section applies to ``module``, as mypy decides."""
        kind = self.rank[0]
        if kind == 1:
            return module == self.pattern
        if kind == 0:
            body = self.pattern.removesuffix(".*")
            return module == body or module.startswith(body + ".")
        return _unstructured(self.pattern).match(module) is not None


def _unstructured(pattern: str) -> re.Pattern[str]:
    """mypy's ``compile_glob``: ``.*`` matches zero or more module sections."""
    parts = pattern.split(".")
    expr = re.escape(parts[0]) if parts[0] != "*" else ".*"
    for part in parts[1:]:
        expr += re.escape("." + part) if part != "*" else r"(\..*)?"
    return re.compile(expr + r"\Z")


def module_option(sections: Iterable[Section], module: str, key: str) -> Any:
    """The value per-module sections give ``key`` for ``module`` (None when none sets it)."""
    value = None
    for section in sorted((s for s in sections if s.matches(module)), key=lambda s: s.rank):
        if key in section.options:
            value = section.options[key]
    return value


class Layout:
    """Module names of one revision's Python files, found by walking up ``__init__`` files
    (as mypy names the files it is given)."""

    def __init__(self, paths: frozenset[str]) -> None:
        self.paths = paths
        self._split: dict[str, tuple[str, str]] = {}

    def is_package(self, directory: str) -> bool:
        """True when ``directory`` holds an ``__init__.py`` (or ``.pyi``)."""
        return bool(directory) and (
            f"{directory}/__init__.py" in self.paths or f"{directory}/__init__.pyi" in self.paths
        )

    def split(self, path: str) -> tuple[str, str]:
        """``(root, module)``: the directory mypy searches and the dotted module name in it."""
        known = self._split.get(path)
        if known is None:
            known = self._split[path] = self._walk(path)
        return known

    def _walk(self, path: str) -> tuple[str, str]:
        pure = PurePosixPath(path)
        names = [pure.name.rsplit(".", 1)[0]]
        if names[0] == "__init__":
            names = []
        directory = pure.parent
        while str(directory) not in ("", ".") and self.is_package(str(directory)):
            names.insert(0, directory.name)
            directory = directory.parent
        root = "" if str(directory) == "." else str(directory)
        return root, ".".join(names) or PurePosixPath(root).name


@dataclass(frozen=True)
class MypyScope:
    """The part of the repository its mypy configuration checks."""

    files: tuple[str, ...] = ()
    """Normalized ``files`` entries (paths or globs); empty when not configured."""
    modules: tuple[str, ...] = ()
    """``packages`` and ``modules`` entries."""
    excludes: tuple[re.Pattern[str], ...] = ()
    sections: tuple[Section, ...] = ()
    """Per-module sections."""
    problems: tuple[str, ...] = ()
    """Options that could not be read (a bad regex), named in the run's reason."""
    patterns: tuple[re.Pattern[str], ...] = ()
    """pre-commit ``files`` patterns of the repository's mypy hooks (searched in the path)."""
    named_by: str = "files/packages/modules"
    """What names the targets, for a run's reason."""

    @property
    def targeted(self) -> bool:
        """True when the configuration (or the repository's commands) names what is checked."""
        return bool(self.files or self.modules or self.patterns)

    def _named_by_files(self, path: str) -> bool:
        if any(pattern.search(path) for pattern in self.patterns):
            return True
        for entry in self.files:
            if any(c in entry for c in "*?["):
                if _glob_regex(entry).fullmatch(path):
                    return True
            elif entry in ("", path) or path.startswith(entry + "/"):
                return True
        return False

    def _named_by_modules(self, module: str) -> bool:
        return any(module == m or module.startswith(m + ".") for m in self.modules)

    def _excluded(self, path: str) -> bool:
        parents = [f"{p}/" for p in PurePosixPath(path).parents if str(p) != "."]
        return any(rx.search(p) for rx in self.excludes for p in (path, *parents))

    def why_out(self, path: str, layout: Layout) -> str | None:
        """Why the repository's own run would not check ``path``; None when it would."""
        module = layout.split(path)[1]
        named = self._named_by_files(path) or self._named_by_modules(module)
        if self.targeted and not named:
            return f"not in {self.named_by}"
        if path not in self.files and self._excluded(path):
            return "matched by exclude"
        if _truthy(module_option(self.sections, module, "ignore_errors")):
            return "ignore_errors"
        follow = str(module_option(self.sections, module, "follow_imports") or "").lower()
        if not named and follow.strip() in ("skip", "silent"):
            return "follow_imports skip/silent"
        return None

    def directories(self) -> tuple[str, ...]:
        """The ``files`` entries that are plain paths (directories or files), not globs."""
        return tuple(e for e in self.files if not any(c in e for c in "*?["))


def mypy_scope(config: MypyConfig, commands: MypyCommands | None = None) -> MypyScope:
    """The scope of a parsed mypy configuration; without targets of its own, the targets of
    the repository's ``commands`` when they could be read."""
    opts = {k.replace("-", "_").strip(): v for k, v in config.global_options.items()}
    files = tuple(_norm(e) for e in _entries(opts.get("files")))
    modules = _entries(opts.get("packages")) + _entries(opts.get("modules"))
    excludes: list[re.Pattern[str]] = []
    problems: list[str] = []
    raw = opts.get("exclude")
    patterns = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else []
    for pattern in patterns:
        try:
            excludes.append(re.compile(str(pattern).strip()))
        except re.error as exc:
            problems.append(f"exclude {str(pattern)[:60]!r} is not a regular expression ({exc})")
    sections = tuple(
        Section(module.strip(), {k.replace("-", "_").strip(): v for k, v in options.items()})
        for module, options in config.per_module
    )
    if not files and not modules and commands is not None:
        return MypyScope(
            commands.paths, commands.modules, tuple(excludes), sections, tuple(problems),
            commands.patterns, commands.describe(),
        )
    return MypyScope(files, modules, tuple(excludes), sections, tuple(problems))


def python_paths(paths: Iterable[str]) -> list[str]:
    """The Python sources and stubs among ``paths``, sorted."""
    return sorted(p for p in paths if p.endswith(PY_SUFFIXES))


def resolution_files(layout: Layout, checked: Iterable[str], scope: MypyScope) -> tuple[str, ...]:
    """The Python files mypy needs on disk to resolve the project's imports of ``checked``.

    The whole top-level package of each checked file (``src/click/core.py`` brings
    ``src/click/**``); the ``.py`` siblings of a checked file that is not in a package (they
    import each other as top-level modules); and everything under the directories ``files``
    names (what a plain ``mypy`` run in the repository puts on its search path). Ordered so
    the packages of the checked files come first.
    """
    python = python_paths(layout.paths)
    prefixes: list[str] = []
    siblings: set[str] = set()
    for path in checked:
        root, module = layout.split(path)
        top = module.split(".")[0]
        package = f"{root}/{top}" if root else top
        if layout.is_package(package):
            prefixes.append(package + "/")
        else:
            siblings.add(str(PurePosixPath(path).parent))
    wanted: dict[str, None] = {}
    for prefix in dict.fromkeys(prefixes):
        wanted.update(dict.fromkeys(p for p in python if p.startswith(prefix)))
    for p in python:
        if str(PurePosixPath(p).parent) in siblings:
            wanted[p] = None
    for entry in scope.directories():
        wanted.update(
            dict.fromkeys(p for p in python if not entry or p == entry or p.startswith(entry + "/"))
        )
    return tuple(wanted)


def search_roots(sides: Iterable[tuple[Layout, Iterable[str]]]) -> tuple[str, ...]:
    """The non-empty roots (see :meth:`Layout.split`) of the staged files of each side, sorted."""
    roots = {layout.split(path)[0] for layout, paths in sides for path in paths}
    return tuple(sorted(r for r in roots if r))
