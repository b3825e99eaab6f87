"""A large, deterministic, real git change for benchmarks: Python-ish code in ~20 directories.

``ensure_change(cache_dir)`` returns a repository with branch ``main`` (the base) and ``pr``
(the change), plus the ``git diff main...pr`` text the local source would read. The repository
is built once per generator version and seed and cached (``bench/.cache`` is gitignored).

The change touches 900+ files with 300k+ changed lines: edits in most files, new files,
deletions, pure renames and renames with edits.
"""

from __future__ import annotations

import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

VERSION = 2
SEED = 20240102
DIRS = (
    "core", "api", "api/v2", "storage", "storage/sql", "auth", "billing", "search", "ui",
    "ui/widgets", "workers", "events", "config", "cli", "plugins", "metrics", "net", "cache",
    "docs_tools", "migrations",
)  # fmt: skip
BASE_FILES = 1000
MODIFIED = 640
ADDED = 220
DELETED = 90
RENAMED_PURE = 40
RENAMED_EDITED = 30

_IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench Author",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "Bench Author",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2024-01-02T03:04:05+00:00",
    "GIT_COMMITTER_DATE": "2024-01-02T03:04:05+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
_WORDS = (
    "user", "order", "item", "price", "total", "count", "index", "value", "name", "record",
    "session", "token", "cache", "queue", "event", "result", "payload", "config", "limit", "state",
)  # fmt: skip


@dataclass(frozen=True)
class Change:
    """The cached benchmark change."""

    repo: Path
    diff_path: Path
    base: str = "main"
    head: str = "pr"


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    from pr_review import process

    result = process.run(
        ["git", "-c", "core.quotePath=false", *args],
        cwd=repo,
        timeout_s=600,
        env={**os.environ, **_IDENTITY},
        stdin=stdin,
    )
    if not result.ok:
        raise RuntimeError(result.describe())
    return result.stdout


def _ident(rng: random.Random) -> str:
    return "_".join(rng.sample(_WORDS, rng.randint(1, 3)))


def _function(rng: random.Random, indent: str = "") -> list[str]:
    """A function of 6-25 lines of plausible Python."""
    name, arg = _ident(rng), _ident(rng)
    lines = [f"{indent}def {name}(self, {arg}, limit={rng.randint(1, 500)}):"]
    lines.append(f'{indent}    """Return the {_ident(rng)} for {arg} ({rng.randint(1, 99)})."""')
    for _ in range(rng.randint(4, 22)):
        a, b = _ident(rng), _ident(rng)
        lines.append(
            rng.choice(
                (
                    f"{indent}    {a} = {b}.get({arg!r}, {rng.randint(0, 1000)})",
                    f"{indent}    if {a} > limit:",
                    f"{indent}        {a} = self.{b}({a}, limit=limit)",
                    f"{indent}    for {a} in {b}:",
                    f"{indent}        total += len({a}) * {rng.randint(2, 9)}",
                    f"{indent}    # {b.replace('_', ' ')} must stay below the {a} bound",
                    f"{indent}    log.debug('{a}=%s {b}=%s', {a}, {b})",
                )
            )
        )
    lines.append(f"{indent}    return {_ident(rng)}")
    lines.append("")
    return lines


def _module(rng: random.Random, target_lines: int) -> list[str]:
    lines = ['"""Module generated for the pack benchmark."""', "", "import logging", ""]
    lines.append("log = logging.getLogger(__name__)")
    lines.append("")
    while len(lines) < target_lines:
        if rng.random() < 0.3:
            lines.append(f"class {_ident(rng).title().replace('_', '')}:")
            lines.append('    """A generated class."""')
            lines.append("")
            for _ in range(rng.randint(2, 5)):
                lines.extend(_function(rng, "    "))
        else:
            lines.extend(_function(rng))
    return lines


def _edit(rng: random.Random, lines: list[str], regions: int) -> list[str]:
    """Replace ``regions`` blocks of lines with new code of a different length."""
    out = list(lines)
    for _ in range(regions):
        if len(out) < 10:
            break
        start = rng.randrange(4, len(out) - 2)
        end = min(len(out), start + rng.randint(3, 30))
        out[start:end] = _function(rng, "    " if rng.random() < 0.5 else "")
    return out


def _write(repo: Path, path: str, lines: list[str]) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _build(repo: Path) -> None:
    rng = random.Random(SEED)  # noqa: S311 - seeded test data, not security
    repo.mkdir(parents=True)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    files: dict[str, list[str]] = {}
    for i in range(BASE_FILES):
        path = f"src/{DIRS[i % len(DIRS)]}/mod_{i:04d}.py"
        files[path] = _module(rng, rng.randint(120, 520))
        _write(repo, path, files[path])
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "pr")
    paths = sorted(files)
    rng.shuffle(paths)
    cursor = 0

    def take(n: int) -> list[str]:
        nonlocal cursor
        chosen = paths[cursor : cursor + n]
        cursor += n
        return chosen

    for path in take(MODIFIED):
        _write(repo, path, _edit(rng, files[path], rng.randint(6, 18)))
    for path in take(DELETED):
        (repo / path).unlink()
    for n, path in enumerate(take(RENAMED_PURE + RENAMED_EDITED)):
        new = path.replace("src/", "lib/", 1).replace("mod_", "moved_")
        lines = files[path] if n < RENAMED_PURE else _edit(rng, files[path], 2)
        (repo / path).unlink()
        _write(repo, new, lines)
    for i in range(ADDED):
        _write(
            repo, f"src/{DIRS[i % len(DIRS)]}/new_{i:04d}.py", _module(rng, rng.randint(250, 700))
        )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Large synthetic change\n\nFor the pack benchmark.")


def ensure_change(cache_dir: Path) -> Change:
    """The cached change, built first if missing (about a minute on two cores)."""
    root = cache_dir / f"synth-v{VERSION}-seed{SEED}"
    change = Change(repo=root / "repo", diff_path=root / "pr.diff")
    if change.diff_path.is_file():
        return change
    if root.exists():
        shutil.rmtree(root)
    _build(change.repo)
    from pr_review.sources.git import DIFF_OPTIONS

    raw = _git(change.repo, "diff", *DIFF_OPTIONS, "main...pr")
    tmp = change.diff_path.with_suffix(".tmp")
    tmp.write_bytes(raw)
    tmp.rename(change.diff_path)
    return change
