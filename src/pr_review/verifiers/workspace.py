"""Temp directories holding the PR's files, so tools read files and never run PR code.

Layout under the workspace root::

    head/      head versions of the touched files + tool config files
    base/      base versions of the modified / renamed files + the same tool config files
    home/      HOME for every tool (no user config leaks in)
    tmp/       TMPDIR, caches, output files

Paths from the PR are data from a possibly hostile author: absolute paths and paths with
``..`` (or empty, ``.``, NUL) components are refused, and files are always written as plain
files (never symlinks), so nothing lands outside the workspace.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pr_review.sources.model import RepoTree

TOOL_CONFIG_FILES: tuple[str, ...] = (
    "pyproject.toml",
    "setup.cfg",
    "ruff.toml",
    ".ruff.toml",
    "mypy.ini",
    ".mypy.ini",
    ".bandit",
    "tox.ini",
)
"""Repository-root files that configure the built-in tools."""


def safe_relpath(path: str) -> PurePosixPath | None:
    """``path`` as a relative path that stays inside a checkout, or None when it would not."""
    if not path or "\0" in path or "\\" in path:
        return None
    pure = PurePosixPath(path)
    if pure.is_absolute():
        return None
    parts = pure.parts
    if not parts or any(p in ("..", ".", "") for p in path.split("/")):
        return None
    return pure


@dataclass(frozen=True)
class Workspace:
    """The temp directories of one verifier run."""

    root: Path

    @property
    def head(self) -> Path:
        """Head versions of touched files."""
        return self.root / "head"

    @property
    def base(self) -> Path:
        """Base versions of modified files."""
        return self.root / "base"

    @property
    def home(self) -> Path:
        """HOME for tools."""
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        """TMPDIR, caches and tool output files."""
        return self.root / "tmp"

    @property
    def checkout(self) -> Path:
        """A full head checkout, made only for repository-declared commands."""
        return self.root / "checkout"

    def prepare(self) -> None:
        """Create the directories."""
        for d in (self.head, self.base, self.home, self.tmp):
            d.mkdir(parents=True, exist_ok=True)


def write_file(root: Path, path: str, text: str) -> bool:
    """Write ``text`` at ``root/path``; False (nothing written) when the path is refused."""
    rel = safe_relpath(path)
    if rel is None:
        return False
    target = root.joinpath(*rel.parts)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError:  # a file where a directory should be (conflicting paths)
        return False
    # Every directory below root is one we created and we never write symlinks, so nothing
    # can redirect the write; the check guards against a future change breaking that.
    if not target.parent.resolve().is_relative_to(root.resolve()):
        return False
    if target.is_symlink() or target.is_dir():
        return False
    target.write_text(text, encoding="utf-8", errors="replace")
    return True


def materialize(
    root: Path, tree: RepoTree, paths: Iterable[str], *, only_existing: bool = True
) -> tuple[str, ...]:
    """Write each path's text from ``tree`` under ``root``; return the paths written."""
    written: list[str] = []
    for path in paths:
        text = tree.read(path)
        if text is None:
            if only_existing:
                continue
            text = ""
        if write_file(root, path, text):
            written.append(path)
    return tuple(written)


def package_markers(tree: RepoTree, paths: Iterable[str]) -> tuple[str, ...]:
    """``__init__.py`` files of the directories above ``paths`` that exist in ``tree``.

    Type checkers need them to name modules the way the repository does.
    """
    known = tree.paths()
    found: set[str] = set()
    for path in paths:
        parent = PurePosixPath(path).parent
        while str(parent) not in (".", ""):
            marker = f"{parent}/__init__.py"
            if marker in known:
                found.add(marker)
            parent = parent.parent
    return tuple(sorted(found))
