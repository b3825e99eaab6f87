"""A synthetic *release* PR of valid Python for the whole-process benchmark (issue 16).

``ensure_release(cache_dir, files=800)`` returns a git repository with branch ``main`` (base)
and ``pr`` (the change): ``files`` Python files touched (about 60% modified, 35% added, 5%
renamed with edits), ~250k changed lines at the default size, every file valid Python (so
ruff and bandit parse them as a real codebase, findings included: unused locals, undefined
names, asserts, subprocess and pickle calls). Seeded and cached in ``bench/.cache``.

``ensure_one_line(cache_dir, megabytes=10)`` is the resource-limit case of issue 11: a PR adding
one ``.py`` file of ``megabytes`` MB on a single line (plus a small ordinary change).
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path

from synth_change import DIRS, _git, _ident

VERSION = 2
SEED = 20261123


@dataclass(frozen=True)
class Release:
    """A cached benchmark repository: ``git diff main...pr`` is the change."""

    repo: Path
    files: int
    base: str = "main"
    head: str = "pr"


def _statement(rng: random.Random, indent: str, arg: str) -> list[str]:  # noqa: PLR0911 - a table
    """One self-contained valid statement (compound ones carry their own body)."""
    a, b = _ident(rng), _ident(rng)
    n = rng.randint(0, 1000)
    pick = rng.randrange(12)
    if pick in (5, 7, 9, 10) and rng.random() < 0.85:  # security hits: a few per file
        pick = 8
    if pick == 0:
        return [f"{indent}{a} = {b}.get({arg!r}, {n})"]  # b: undefined name (F821)
    if pick == 1:
        return [f"{indent}if {arg} > limit:", f"{indent}    {arg} = self.{b}({arg}, limit=limit)"]
    if pick == 2:
        return [f"{indent}for {a} in {arg}:", f"{indent}    total += len({a}) * {n % 9 + 2}"]
    if pick == 3:
        return [f"{indent}# {b.replace('_', ' ')} must stay below the {a} bound"]
    if pick == 4:
        return [f"{indent}log.debug('{a}=%s', {arg})"]
    if pick == 5:
        return [f"{indent}assert {arg} is not None, '{a}'"]  # bandit B101
    if pick == 6:
        return [f"{indent}unused_{a} = {n}"]  # F841
    if pick == 7:
        return [f"{indent}subprocess.run(['echo', str({arg})], check=False)"]  # B603/B607
    if pick == 8:
        return [f"{indent}total = total + {n}"]
    if pick == 9:
        return [
            f"{indent}try:",
            f"{indent}    total += int({arg})",
            f"{indent}except ValueError:",
            f"{indent}    pass",  # B110
        ]
    if pick == 10:
        return [f"{indent}data = pickle.loads(bytes({arg}))"]  # B301
    return [f"{indent}total -= {n}"]


def _function(rng: random.Random, indent: str = "") -> list[str]:
    """A function of 6-30 lines of valid Python."""
    name, arg = _ident(rng), _ident(rng)
    lines = [f"{indent}def {name}(self, {arg}, limit={rng.randint(1, 500)}):"]
    lines.append(f'{indent}    """Return the {_ident(rng)} for {arg} ({rng.randint(1, 99)})."""')
    lines.append(f"{indent}    total = 0")
    for _ in range(rng.randint(3, 18)):
        lines.extend(_statement(rng, indent + "    ", arg))
    lines.append(f"{indent}    return total")
    lines.append("")
    return lines


_HEADER = [
    '"""Module generated for the process benchmark."""',
    "",
    "import logging",
    "import pickle",
    "import subprocess",
    "",
    "log = logging.getLogger(__name__)",
    "",
]


def _module(rng: random.Random, target_lines: int) -> list[str]:
    lines = list(_HEADER)
    while len(lines) < target_lines:
        if rng.random() < 0.3:
            lines.append(f"class {_ident(rng).title().replace('_', '')}:")
            lines.append('    """A generated class."""')
            lines.append("")
            for _ in range(rng.randint(2, 5)):
                lines.extend(_function(rng, "    "))
        else:
            lines.extend(_function(rng))
            lines.append("")
    return lines


def _units(lines: list[str]) -> list[list[str]]:
    """The module split at top-level ``def``/``class`` lines (header first)."""
    units: list[list[str]] = [[]]
    for line in lines:
        if line.startswith(("def ", "class ")):
            units.append([])
        units[-1].append(line)
    return units


def _edit(rng: random.Random, lines: list[str], share: float) -> list[str]:
    """Replace about ``share`` of the top-level units with new ones: valid Python stays valid."""
    units = _units(lines)
    for i in range(1, len(units)):
        if rng.random() < share:
            units[i] = [*_function(rng), ""]
    units.append([*_function(rng), ""])
    return [line for unit in units for line in unit]


def _write(repo: Path, path: str, lines: list[str]) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _build(repo: Path, files: int) -> None:
    rng = random.Random(SEED)  # noqa: S311 - seeded test data, not security
    modified, renamed = files * 60 // 100, files * 5 // 100
    added = files - modified - renamed
    repo.mkdir(parents=True)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    base: dict[str, list[str]] = {}
    for i in range(modified + renamed + files // 4):  # untouched files too
        path = f"src/{DIRS[i % len(DIRS)]}/mod_{i:04d}.py"
        base[path] = _module(rng, rng.randint(150, 450))
        _write(repo, path, base[path])
    _write(repo, "pyproject.toml", ["[project]", 'name = "bench"', 'version = "1.0"'])
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "pr")
    paths = sorted(base)
    for path in paths[:modified]:
        _write(repo, path, _edit(rng, base[path], 0.45))
    for path in paths[modified : modified + renamed]:
        (repo / path).unlink()
        _write(repo, path.replace("src/", "lib/", 1), _edit(rng, base[path], 0.1))
    for i in range(added):
        path = f"src/{DIRS[i % len(DIRS)]}/new_{i:04d}.py"
        _write(repo, path, _module(rng, rng.randint(250, 600)))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Release 2.0\n\nThe synthetic release for the benchmark.")


def ensure_release(cache_dir: Path, files: int = 800) -> Release:
    """The cached release change of ``files`` files, built first when missing."""
    root = cache_dir / f"release-v{VERSION}-seed{SEED}-{files}"
    release = Release(repo=root / "repo", files=files)
    done = root / "done"
    if done.is_file():
        return release
    if root.exists():
        shutil.rmtree(root)
    _build(release.repo, files)
    done.write_text("ok\n", encoding="utf-8")
    return release


def ensure_one_line(cache_dir: Path, megabytes: int = 10, suffix: str = ".py") -> Release:
    """A PR adding a ``megabytes`` MB one-line file (``.py`` or ``.js``) beside a small change."""
    root = cache_dir / f"oneline-v{VERSION}-{megabytes}mb{suffix}"
    release = Release(repo=root / "repo", files=2)
    done = root / "done"
    if done.is_file():
        return release
    if root.exists():
        shutil.rmtree(root)
    rng = random.Random(SEED)  # noqa: S311 - seeded test data, not security
    repo = release.repo
    repo.mkdir(parents=True)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    _write(repo, "src/app.py", _module(rng, 200))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "pr")
    same = random.Random(SEED)  # noqa: S311 - seeded test data: the base module again
    _write(repo, "src/app.py", _edit(rng, _module(same, 200), 0.3))
    item = "'abcdefghij%05d', "
    count = megabytes * 1_000_000 // len(item % 0)
    body = "".join(item % (i % 100_000) for i in range(count))
    line = f"DATA = [{body}]\n" if suffix == ".py" else f"const DATA = [{body}];\n"
    (repo / "src" / f"data{suffix}").write_text(line, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add a one-line data module")
    done.write_text("ok\n", encoding="utf-8")
    return release
