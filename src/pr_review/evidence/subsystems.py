"""Which subsystem each touched file belongs to.

Order: the configured ``subsystems`` globs (first match wins); otherwise the CODEOWNERS
entry that owns the file, named after its pattern; otherwise the first meaningful
directory (``src/api/x.py`` -> ``api``). Tests, docs and files at the root get the names
``tests``, ``docs`` and ``root`` and never count as code subsystems.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from pr_review.evidence.codeowners import CodeOwners
from pr_review.evidence.globs import Glob, GlobError, compile_glob
from pr_review.sources.paths import GENERIC_ROOTS, PathKind, classify

TESTS = "tests"
DOCS = "docs"
ROOT = "root"
NON_CODE = frozenset({TESTS, DOCS, ROOT})


@dataclass(frozen=True)
class SubsystemMap:
    """Configured subsystem globs, compiled, plus the patterns that could not be used."""

    rules: tuple[tuple[str, Glob], ...] = ()
    errors: tuple[str, ...] = ()


def compile_subsystems(config: Mapping[str, Sequence[str]]) -> SubsystemMap:
    """Compile configured globs; an invalid one is skipped and reported."""
    rules: list[tuple[str, Glob]] = []
    errors: list[str] = []
    for name, patterns in config.items():
        for pattern in patterns:
            try:
                rules.append((name, compile_glob(pattern)))
            except GlobError as exc:
                errors.append(f"subsystems.{name}: {exc}; pattern ignored")
    return SubsystemMap(tuple(rules), tuple(errors))


def subsystem_of(path: str, configured: SubsystemMap, codeowners: CodeOwners) -> str:
    """The subsystem name of one path."""
    for name, glob in configured.rules:
        if glob.matches(path):
            return name
    kind = classify(path)
    if kind is PathKind.TEST:
        return TESTS
    if kind is PathKind.DOCS:
        return DOCS
    entry = codeowners.owner_of(path)
    if entry is not None:
        named = _name_from_pattern(entry.pattern)
        if named:
            return named
    return _meaningful_directory(path)


def code_subsystems(names: Iterable[str]) -> tuple[str, ...]:
    """Distinct subsystems that count for the multi-subsystem factor, sorted."""
    return tuple(sorted({n for n in names if n not in NON_CODE}))


def _meaningful_directory(path: str) -> str:
    parts = PurePosixPath(path).parts[:-1]
    meaningful = [p for p in parts if p.lower() not in GENERIC_ROOTS]
    if meaningful:
        return meaningful[0]
    return parts[-1] if parts else ROOT


def _name_from_pattern(pattern: str) -> str | None:
    """``/src/payments/`` -> ``payments``; wildcard-only patterns name nothing."""
    parts = [p for p in pattern.strip("/").split("/") if p and "*" not in p and "?" not in p]
    if "." in (parts[-1] if parts else "") and not pattern.endswith("/"):
        parts = parts[:-1]  # a file pattern: its directory is the boundary
    while parts and parts[0].lower() in GENERIC_ROOTS:
        parts = parts[1:]
    return "/".join(parts) or None
