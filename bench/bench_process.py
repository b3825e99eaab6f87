"""The whole ``pr-review`` process on a synthetic release PR, beside the floors (issue 16).

Run: ``.venv/bin/python bench/bench_process.py [--files 800] [--reps 3] [--latency 0.2]``

Input: ``bench/synth_release.py`` builds (once, cached in ``bench/.cache``) a git repository
whose PR touches ``--files`` valid-Python files (~250k changed lines at 800 files).

Every workload is a separate process; wall time and its peak RSS (``ru_maxrss`` of the child
as ``os.wait4`` reports it: the largest of the process and the children it waited for) are
measured. The workloads alternate, ``--reps`` times, and medians are compared in one run:

floors   unidiff parse of the diff text; ruff on the changed head files; ruff on the changed
         base files; bandit on the changed head files (each its own process, the same rule
         selection our ruff verifier uses without a repository configuration)
ours     ``pr-review pack``; ``pack`` with the verifiers disabled by configuration;
         ``review`` with no key; ``review`` against the loopback Messages API
         (``tests/fakes/anthropic_server.py``) answering after ``--latency`` seconds

With ``--baseline SRC`` (the ``src/`` of another checkout) that code's ``pack`` and
verifiers-disabled ``pack`` run interleaved too, for a before/after measured in one run.

With ``--timings`` support (``pr-review pack --timings``) each process's stage breakdown is
printed beside the floor it should approach. Then the resource-limit case of issue 11: a PR
adding a 10 MB one-line ``.py`` (and ``.js``) file, ``review`` with no key, peak RSS.

Targets (issue 16 and 11): pack <= 1.3 x the sum of the four floors; pack peak RSS <= 4 x
unidiff's; pack without verifiers <= 2 x unidiff's time; review (no key) <= 1.3 x pack, with
the same memory bound; the one-line file's review < 300 MB. Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

PACK_TARGET = 1.3
MEMORY_TARGET = 4.0
NO_VERIFIERS_TARGET = 2.0
REVIEW_TARGET = 1.3
ONE_LINE_LIMIT_MB = 300
UNLIMITED = "verifiers:\n  timeout_seconds: 3000\n  total_budget_seconds: 6000\n"


@dataclass
class Measured:
    """Wall seconds and peak RSS (bytes) of each repetition, plus the last stage breakdown."""

    seconds: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    stages: dict[str, list[float]] = field(default_factory=dict)

    @property
    def time(self) -> float:
        """Median wall time."""
        return statistics.median(self.seconds)

    @property
    def peak(self) -> int:
        """Median peak RSS."""
        return int(statistics.median(self.rss))


def run_measured(
    argv: list[str], *, cwd: Path, env: dict[str, str], ok_exits: tuple[int, ...] = (0,)
) -> tuple[float, int, str]:
    """Run one process; its wall time, peak RSS in bytes and stderr. Raises when it fails.

    Peak RSS is GNU time's ``%M`` (the process's ``ru_maxrss``, children it waited for
    included): measured in a launcher so this process's own size, which a forked child's
    ``ru_maxrss`` starts from on Linux, does not count.
    """
    with tempfile.TemporaryDirectory() as tmp:
        rss_file = Path(tmp) / "rss"
        err_file = Path(tmp) / "err"
        with open(err_file, "wb") as err, open(os.devnull, "wb") as out:
            started = time.perf_counter()
            code = subprocess.call(
                [TIME, "-q", "-f", "%M", "-o", str(rss_file), *argv],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=err,
            )
            elapsed = time.perf_counter() - started
        text = err_file.read_text(encoding="utf-8", errors="replace")
        rss_kib = rss_file.read_text(encoding="utf-8").strip().splitlines()[-1]
    if code not in ok_exits:
        raise RuntimeError(f"{argv[:4]} exited {code}: {text[-2000:]}")
    return elapsed, int(rss_kib) * 1024, text


TIME = "/usr/bin/time"
BASELINE_PACK = "baseline: pr-review pack"
BASELINE_BARE = "baseline: pack, no verifiers"


_TIMING = re.compile(r"^pr-review: timing: (?P<stage>.+?)\s+(?P<s>[0-9.]+) s$")


def stages_of(stderr: str) -> dict[str, float]:
    """``pr-review: timing: <stage> <seconds> s`` lines of ``--timings``; one line per
    reviewer call (``fresh_eyes:api#3: ran``) is summed into ``reviewer calls (N)``."""
    out: dict[str, float] = {}
    calls, total = 0, 0.0
    for m in map(_TIMING.match, stderr.splitlines()):
        if m is None:
            continue
        stage = m["stage"].strip()
        if re.match(r"^(fresh_eyes|challenger|policy)\S*#\d+: ", stage):
            calls += 1
            total += float(m["s"])
        else:
            out[stage] = float(m["s"])
    if calls:
        out[f"reviewer runs ({calls}), summed"] = total
    return out


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "core.quotePath=false", *args],
        cwd=repo,
        capture_output=True,
        check=True,
        text=True,
    ).stdout


@dataclass(frozen=True)
class Floors:
    """What the floor processes read: the diff text and both sides' changed Python files."""

    diff: Path
    head_root: Path
    head_files: tuple[str, ...]
    base_root: Path
    base_files: tuple[str, ...]


def prepare_floors(repo: Path, work: Path) -> Floors:
    """Export both sides and the diff (cached beside the repository)."""
    from pr_review.sources.git import DIFF_OPTIONS

    diff = work / "pr.diff"
    head_root, base_root = work / "head", work / "base"
    if not diff.exists():
        for ref, root in (("pr", head_root), ("main", base_root)):
            root.mkdir(parents=True, exist_ok=True)
            archive = subprocess.run(
                ["git", "archive", ref], cwd=repo, capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        raw = subprocess.run(
            ["git", "diff", *DIFF_OPTIONS, "main...pr"], cwd=repo, capture_output=True, check=True
        ).stdout
        diff.write_bytes(raw)
    rows = _git(repo, "diff", "--name-status", "-M", "main...pr").splitlines()
    head: list[str] = []
    base: list[str] = []
    for row in rows:
        status, *paths = row.split("\t")
        if status.startswith("D"):
            continue
        if paths[-1].endswith(".py"):
            head.append(paths[-1])
        if status.startswith(("M", "R")) and paths[0].endswith(".py"):
            base.append(paths[0])
    return Floors(diff, head_root, tuple(head), base_root, tuple(base))


def floor_workloads(floors: Floors, work: Path) -> dict[str, tuple[list[str], Path]]:
    """``name -> (argv, cwd)`` of the four floor processes."""
    from pr_review.verifiers.rule_catalog import RUFF_DEFAULT_IGNORE, RUFF_DEFAULT_SELECT

    py = sys.executable
    parse = "import sys, unidiff; unidiff.PatchSet(open(sys.argv[1], encoding='utf-8').read())"
    ruff = [
        py,
        "-m",
        "ruff",
        "check",
        "--no-cache",
        "--exit-zero",
        "--force-exclude",
        "--output-format",
        "json",
        "--isolated",
        "--select",
        ",".join(RUFF_DEFAULT_SELECT),
        "--ignore",
        ",".join(RUFF_DEFAULT_IGNORE),
    ]
    return {
        "floor: unidiff parse": ([py, "-c", parse, str(floors.diff)], work),
        "floor: ruff head": (
            [*ruff, "--output-file", str(work / "ruff-head.json"), "--", *floors.head_files],
            floors.head_root,
        ),
        "floor: ruff base": (
            [*ruff, "--output-file", str(work / "ruff-base.json"), "--", *floors.base_files],
            floors.base_root,
        ),
        "floor: bandit head": (
            [
                py,
                "-m",
                "bandit",
                "-q",
                "-f",
                "json",
                "-o",
                str(work / "bandit.json"),
                "--",
                *floors.head_files,
            ],
            floors.head_root,
        ),
    }


def base_env() -> dict[str, str]:
    """This environment without model credentials, with a fixed git identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    # An installed pr-review has its bytecode compiled: measure that, not recompiling sources.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def supports_timings(env: dict[str, str] | None = None) -> bool:
    """True when ``pr-review pack`` has ``--timings`` (absent before issue 16)."""
    out = subprocess.run(
        [sys.executable, "-m", "pr_review", "pack", "--help"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    return "--timings" in out.stdout


def answer_nothing(latency: float) -> Callable[[Any], Any]:
    """A Messages API handler answering every forced tool with no findings after ``latency``."""
    from tests.fakes.anthropic_server import tool_reply

    def handle(request: Any) -> Any:
        tool = request.tool_name or ""
        payload: dict[str, Any] = {"findings": []}
        if tool not in ("submit_review", "submit_challenge", ""):
            payload = {"instructions": []}
        return tool_reply(request, payload, delay_s=latency)

    return handle


def main(argv: list[str]) -> int:
    """Measure, print the table and the targets; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=800, help="files in the release PR (800)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each (3)")
    parser.add_argument("--latency", type=float, default=0.2, help="model latency, s (0.2)")
    parser.add_argument("--no-model", action="store_true", help="skip the loopback model run")
    parser.add_argument("--no-one-line", action="store_true", help="skip the 10 MB one-line case")
    parser.add_argument("--only-one-line", action="store_true", help="only the one-line case")
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="SRC",
        help="the src/ of another checkout (git worktree add DIR COMMIT): its pack and "
        "verifiers-disabled pack run interleaved with ours, for a before/after in one run",
    )
    args = parser.parse_args(argv[1:])
    ok = True
    if not args.only_one_line:
        ok = whole_process(args) and ok
    if not args.no_one_line:
        ok = one_line() and ok
    print("\nall targets met" if ok else "\nTARGET MISSED")
    return 0 if ok else 1


def whole_process(args: argparse.Namespace) -> bool:
    """The 800-file table; True when its targets are met."""
    from tests.fakes.anthropic_server import anthropic_server

    from synth_release import ensure_release

    release = ensure_release(CACHE, args.files)
    work = release.repo.parent / "floors"
    work.mkdir(exist_ok=True)
    floors = prepare_floors(release.repo, work)
    stat = _git(release.repo, "diff", "--shortstat", "main...pr").strip()
    print(
        f"release PR: {stat}; {len(floors.head_files)} head / {len(floors.base_files)} base "
        f"Python files; diff {floors.diff.stat().st_size / 1e6:.1f} MB"
    )
    timings = ["--timings"] if supports_timings() else []
    if not timings:
        print("(this pr-review has no --timings: no stage breakdown)")
    # Time limits high enough that no verifier is cut short: pack then does the floors' work.
    config = work / "bench-config.yml"
    config.write_text(UNLIMITED, encoding="utf-8")
    no_verifiers = work / "no-verifiers.yml"
    no_verifiers.write_text("verifiers:\n  enabled: false\n", encoding="utf-8")
    env = base_env()
    local = [sys.executable, "-m", "pr_review"]
    repo_args = ["--repo", str(release.repo), "--base", "main", "--head", "pr"]
    pr_args = [*repo_args, "--config", str(config)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        anthropic_server(answer_nothing(args.latency)) as server,
    ):
        out = Path(tmp)
        model_env = {**env, "ANTHROPIC_API_KEY": "bench-key", "ANTHROPIC_BASE_URL": server.base_url}
        ours: dict[str, tuple[list[str], Path, dict[str, str]]] = {
            "pr-review pack": (
                [*local, "pack", *pr_args, "--out", str(out / "p.json"), *timings],
                ROOT,
                env,
            ),
            "pack, verifiers disabled": (
                [
                    *local,
                    "pack",
                    *repo_args,
                    "--config",
                    str(no_verifiers),
                    "--out",
                    str(out / "p2.json"),
                    *timings,
                ],
                ROOT,
                env,
            ),
            "review, no key": (
                [
                    *local,
                    "review",
                    *pr_args,
                    "--out-dir",
                    str(out / "r"),
                    "--format",
                    "markdown",
                    *timings,
                ],
                ROOT,
                env,
            ),
        }
        if args.baseline is not None:
            before = {**env, "PYTHONPATH": str(args.baseline.resolve())}
            then = ["--timings"] if supports_timings(before) else []
            ours[BASELINE_PACK] = (
                [*local, "pack", *pr_args, "--out", str(out / "b.json"), *then],
                ROOT,
                before,
            )
            ours[BASELINE_BARE] = (
                [
                    *local,
                    "pack",
                    *repo_args,
                    "--config",
                    str(no_verifiers),
                    "--out",
                    str(out / "b2.json"),
                    *then,
                ],
                ROOT,
                before,
            )
        if not args.no_model:
            ours[f"review, model {args.latency:g} s"] = (
                [
                    *local,
                    "review",
                    *pr_args,
                    "--out-dir",
                    str(out / "m"),
                    "--format",
                    "markdown",
                    *timings,
                ],
                ROOT,
                model_env,
            )
        workloads = {
            **{k: (a, c, env) for k, (a, c) in floor_workloads(floors, work).items()},
            **ours,
        }
        results = {name: Measured() for name in workloads}
        for rep in range(args.reps):  # interleaved: machine load drifts over every workload
            for name, (cmd, cwd, wenv) in workloads.items():
                exits = (0, 1) if "bandit" in name else (0,)  # bandit exits 1 on findings
                seconds, rss, err = run_measured(cmd, cwd=cwd, env=wenv, ok_exits=exits)
                results[name].seconds.append(seconds)
                results[name].rss.append(rss)
                for stage, s in stages_of(err).items():
                    results[name].stages.setdefault(stage, []).append(s)
                print(
                    f"  rep {rep + 1}: {name:28} {seconds:7.2f} s {rss / 2**20:7.0f} MiB",
                    flush=True,
                )
                refused = _failed_reviewers(err)
                if refused:  # a run whose answers were refused measures nothing
                    raise RuntimeError(f"{name}: reviewers failed: {refused[:3]}")
        calls = len(server.requests)
    return report(results, args.reps, calls)


def _failed_reviewers(stderr: str) -> list[str]:
    """Reviewer runs the progress log reports as failed (``pr-review: <run>: failed``)."""
    return re.findall(r"^pr-review: (\S+): failed$", stderr, flags=re.MULTILINE)


def report(results: dict[str, Measured], reps: int, calls: int) -> bool:
    """Print the side-by-side table and the verdicts."""
    floors = {k: v for k, v in results.items() if k.startswith("floor:")}
    floor_sum = sum(m.time for m in floors.values())
    unidiff = results["floor: unidiff parse"]
    print(f"\n{'process':30} {'median s':>9} {'peak MiB':>9}   (medians of {reps})")
    for name, m in results.items():
        print(f"{name:30} {m.time:9.2f} {m.peak / 2**20:9.0f}")
        for stage, values in m.stages.items():
            print(f"    {stage:26} {statistics.median(values):9.2f}")
    print(f"{'sum of the four floors':30} {floor_sum:9.2f}")
    if calls:
        print(f"(loopback model calls in all reps: {calls})")
    pack = results["pr-review pack"]
    bare = results["pack, verifiers disabled"]
    review = results["review, no key"]
    checks = [
        ("pack time / floor sum", pack.time / floor_sum, PACK_TARGET),
        ("pack peak RSS / unidiff's", pack.peak / unidiff.peak, MEMORY_TARGET),
        ("pack, no verifiers / unidiff time", bare.time / unidiff.time, NO_VERIFIERS_TARGET),
        ("review (no key) / pack time", review.time / pack.time, REVIEW_TARGET),
        ("review (no key) peak RSS / unidiff's", review.peak / unidiff.peak, MEMORY_TARGET),
    ]
    print()
    ok = True
    for label, ratio, target in checks:
        met = ratio <= target
        ok = ok and met
        print(f"{label:38} {ratio:6.2f}x  (target <= {target}x)  {'PASS' if met else 'FAIL'}")
    if BASELINE_PACK in results:
        print()
        for now, then in ((pack, results[BASELINE_PACK]), (bare, results[BASELINE_BARE])):
            name = "pack" if now is pack else "pack, no verifiers"
            print(
                f"{name:20} baseline {then.time:6.2f} s ({then.time / unidiff.time:4.2f}x "
                f"unidiff), now {now.time:6.2f} s ({now.time / unidiff.time:4.2f}x); "
                f"peak {then.peak / 2**20:.0f} -> {now.peak / 2**20:.0f} MiB"
            )
    return ok


def one_line() -> bool:
    """``review`` (no key) of a PR adding a 10 MB one-line file: peak RSS under the limit."""
    from synth_release import ensure_one_line

    ok = True
    print()
    for suffix in (".py", ".js"):
        release = ensure_one_line(CACHE, 10, suffix)
        with tempfile.TemporaryDirectory() as tmp:
            argv = [
                sys.executable,
                "-m",
                "pr_review",
                "review",
                "--repo",
                str(release.repo),
                "--base",
                "main",
                "--head",
                "pr",
                "--out-dir",
                tmp,
                "--format",
                "markdown",
            ]
            seconds, rss, _ = run_measured(argv, cwd=ROOT, env=base_env())
            pack = json.loads((Path(tmp) / "evidence-pack.json").read_text(encoding="utf-8"))
        mib = rss / 2**20
        met = mib < ONE_LINE_LIMIT_MB
        ok = ok and met
        lane = pack.get("risk", {}).get("lane", "?")
        print(
            f"10 MB one-line {suffix} file, review (no key): {seconds:6.1f} s, peak "
            f"{mib:5.0f} MiB (limit {ONE_LINE_LIMIT_MB} MB, lane {lane}) "
            f"{'PASS' if met else 'FAIL'}"
        )
    return ok


if __name__ == "__main__":
    sys.exit(main(sys.argv))
