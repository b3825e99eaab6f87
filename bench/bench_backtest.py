"""``pr-review backtest`` on a generated history of a few hundred merged PRs: time per PR.

Run: ``.venv/bin/python bench/bench_backtest.py [--prs N] [--concurrency N]`` (default 250
PRs, concurrency 2). The repository is built once with one ``git fast-import`` (deterministic:
seeded contents, fixed dates) and cached in ``bench/.cache/`` (gitignored): a small Python
project with docs, a CI workflow and a requirements file; two PRs in three are GitHub-style
merge commits (``Merge pull request #N``), the others squash commits ending in ``(#N)``, and
every tenth commit on main is a direct push (not a PR). PRs change 1-3 files: code edits,
new modules, docs, dependency bumps, CI edits.

Prints the PRs found and reviewed, the lane distribution, the wall time, the wall time per PR
and the median review time per PR. Target: at most 2.0 s of wall time per PR at concurrency 2
(a backtest of the last 200 PRs in under 7 minutes on a laptop).
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
VERSION = 1
SEED = 20241122
TARGET_S_PER_PR = 2.0
MODULES = ("core", "api", "storage", "auth", "billing", "search", "workers", "cli")


def _module_text(rng: random.Random, name: str, version: int) -> str:
    funcs = []
    for i in range(12):
        k = rng.randint(1, 9)
        funcs.append(
            f"def {name}_step_{i}(value: int) -> int:\n"
            f"    \"\"\"Step {i} of {name} (revision {version}).\"\"\"\n"
            f"    if value > {k * 10}:\n"
            f"        return value - {k}\n"
            f"    return value * {k} + {version}\n"
        )
    return "\n\n".join(funcs) + "\n"


class _Stream:
    """A ``git fast-import`` stream of the history."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.mark = 0
        self.when = 1_600_000_000

    def commit(
        self, ref: str, message: str, files: dict[str, str], parents: tuple[int, ...]
    ) -> int:
        self.mark += 1
        self.when += 3600
        msg = message.encode()
        out = [f"commit {ref}\nmark :{self.mark}\n".encode(),
               f"committer Bench <bench@example.invalid> {self.when} +0000\n".encode(),
               f"data {len(msg)}\n".encode(), msg, b"\n"]
        if parents:
            out.append(f"from :{parents[0]}\n".encode())
            out.extend(f"merge :{p}\n".encode() for p in parents[1:])
        for path, text in sorted(files.items()):
            data = text.encode()
            out.append(f"M 100644 inline {path}\ndata {len(data)}\n".encode())
            out.extend([data, b"\n"])
        self.parts.append(b"".join(out))
        return self.mark


def build_repo(dest: Path, prs: int) -> None:
    """The history: an initial commit, then ``prs`` merged PRs and some direct pushes."""
    rng = random.Random(SEED)  # noqa: S311 (seeded test data, not security)
    versions = dict.fromkeys(MODULES, 0)
    files = {f"src/app/{m}.py": _module_text(rng, m, 0) for m in MODULES}
    files |= {"README.md": "# app\n", "docs/guide.md": "# Guide\n", "requirements.txt":
              "requests==2.31.0\n", ".github/workflows/ci.yml": "on: [push]\njobs: {}\n",
              "tests/test_core.py": "def test_core() -> None:\n    assert True\n"}
    s = _Stream()
    tip = s.commit("refs/heads/main", "initial\n", files, ())
    for number in range(1, prs + 1):
        if number % 10 == 0:
            module = rng.choice(MODULES)
            versions[module] += 1
            change = {f"src/app/{module}.py": _module_text(rng, module, versions[module])}
            tip = s.commit("refs/heads/main", f"hotfix {module}\n", change, (tip,))
        change = _pr_change(rng, number, versions)
        title = f"Change {number}: {', '.join(sorted(change))}"
        if number % 3:
            head = s.commit(f"refs/heads/pr-{number}", f"work for #{number}\n", change, (tip,))
            tip = s.commit("refs/heads/main",
                           f"Merge pull request #{number} from dev/pr-{number}\n\n{title}\n",
                           change, (tip, head))
        else:
            tip = s.commit("refs/heads/main", f"{title} (#{number})\n\n* squashed\n", change,
                           (tip,))
    dest.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "--bare", str(dest)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=dest, input=b"".join(s.parts),
                   check=True)


def _pr_change(rng: random.Random, number: int, versions: dict[str, int]) -> dict[str, str]:
    kind = rng.random()
    if kind < 0.15:
        return {"docs/guide.md": f"# Guide\n\nRevision {number}.\n"}
    if kind < 0.22:
        return {"requirements.txt": f"requests==2.{number % 40}.0\n"}
    if kind < 0.26:
        return {".github/workflows/ci.yml": f"on: [push]\njobs: {{}}\n# {number}\n"}
    if kind < 0.35:
        return {f"src/app/new_{number}.py": _module_text(rng, f"new_{number}", 0)}
    change = {}
    for module in rng.sample(MODULES, rng.randint(1, 3)):
        versions[module] += 1
        change[f"src/app/{module}.py"] = _module_text(rng, module, versions[module])
    return change


def ensure_repo(prs: int) -> Path:
    """The cached repository for ``prs`` PRs (built on first use)."""
    dest = CACHE / f"backtest-v{VERSION}-{SEED}-{prs}.git"
    if not dest.is_dir():
        tmp = dest.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        build_repo(tmp, prs)
        tmp.rename(dest)
    return dest


def main(argv: list[str]) -> int:
    """Build (or reuse) the repository, run the backtest, print the figures."""
    from pr_review.backtest.command import run_backtest_command

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prs", type=int, default=250)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args(argv[1:])
    repo = ensure_repo(args.prs)
    log = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="bench-backtest-") as out:
        started = time.perf_counter()
        code = run_backtest_command(
            argparse.Namespace(repo=repo, branch="main", last=args.prs, since=None,
                               out_dir=Path(out), concurrency=args.concurrency,
                               with_model=False),
            env={}, stdout=sys.stdout, stderr=log,
        )
        wall = time.perf_counter() - started
        report = (Path(out) / "backtest.json").read_text(encoding="utf-8")
    import json

    data = json.loads(report)
    n = len(data["prs"])
    per_pr = wall / n
    print(f"repository       {repo.name}: {args.prs} PRs generated")
    print(f"reviewed         {n} PRs (exit {code}), {data['lanes']}")
    print(f"wall time        {wall:.1f} s at concurrency {args.concurrency}, including the "
          "history scan")
    print(f"per PR           {per_pr:.2f} s wall, {data['seconds_per_pr_median']:.2f} s median "
          f"review (target <= {TARGET_S_PER_PR:.1f} s wall)")
    if code != 0 or n != args.prs or per_pr > TARGET_S_PER_PR:
        print("target missed")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
