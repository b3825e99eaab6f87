"""Pack build vs ``unidiff.PatchSet`` alone, on a large real git change: time and peak memory.

Run: ``.venv/bin/python bench/bench_pack.py [--reps N] [--no-memory]``

The change (1000+ files, 300k+ changed lines, renames, deletions, additions; see
``bench/synth_change.py``) is generated once and cached in ``bench/.cache``. Measured side by
side on the same diff text:

(a) ``unidiff.PatchSet(text)``                       the floor: parsing the diff at all
(b) ``parse_diff(text)`` + ``build_pack(pr, config)``  what ``pr-review pack`` does after git
(c) ``parse_diff(text)`` alone                         (b)'s share taken by the diff model

Time: the workloads alternate in this process, ``--reps`` times each; medians are compared.
Memory: tracemalloc peak of each, every one in a fresh subprocess so neither inherits the
other's heap. The input text and the PR's commits are loaded before tracing starts. The trees
are real ``GitTree`` objects, fresh for each run, so git reads are inside (b).
Targets: time(b) <= 1.5 x time(a), peak(b) <= 2 x peak(a). Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
TIME_TARGET = 1.5
MEMORY_TARGET = 2.0
sys.path.insert(0, str(ROOT / "bench"))


Workload = Callable[[], object]


def _workloads() -> tuple[str, dict[str, Workload]]:
    """The diff text and the workloads, each a zero-argument callable over that text."""
    import dataclasses

    from unidiff import PatchSet

    from pr_review.config import Config
    from pr_review.sources.diff import Diff, parse_diff
    from pr_review.sources.git import GitTree, git_ok, pr_trees, read_commits
    from pr_review.sources.model import PullRequest
    from synth_change import ensure_change

    change = ensure_change(CACHE)
    text = change.diff_path.read_bytes().decode("utf-8", errors="replace")
    base = git_ok(change.repo, "merge-base", change.base, change.head).decode().strip()
    head = git_ok(change.repo, "rev-parse", change.head).decode().strip()
    skeleton = PullRequest(
        title="bench",
        body="",
        diff=Diff(files=(), raw=""),
        commits=read_commits(change.repo, f"{base}..{head}"),
        base_tree=GitTree(change.repo, base),
        head_tree=GitTree(change.repo, head),
        base_sha=base,
        head_sha=head,
    )
    config = Config()
    build_pack = _pack_builder()

    def pack() -> object:
        diff = parse_diff(text)
        if build_pack is None:
            return diff
        # Fresh trees each run (as read_local_pr makes them) so no run uses another's cache.
        base_tree, head_tree = pr_trees(change.repo, diff, base, head)
        pr = dataclasses.replace(skeleton, diff=diff, base_tree=base_tree, head_tree=head_tree)
        return build_pack(pr, config)

    return text, {
        UNIDIFF: lambda: PatchSet(text),
        PACK: pack,
        PARSE: lambda: parse_diff(text),
    }


UNIDIFF = "unidiff.PatchSet"
PACK = "parse_diff + build_pack"
PARSE = "  of which parse_diff"


def _pack_builder() -> Callable[..., object] | None:
    """``build_pack`` when the evidence stage exists; None measures ``parse_diff`` alone."""
    try:
        from pr_review.evidence.build import build_pack
    except ImportError:
        return None
    return build_pack


def _child(name: str) -> None:
    """Measure one workload's tracemalloc peak in this fresh process; print it as JSON."""
    import tracemalloc

    _, workloads = _workloads()
    gc.collect()
    tracemalloc.start()
    result = workloads[name]()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    print(json.dumps({"peak": peak}))


def _peak(name: str) -> int:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return int(json.loads(out.stdout.strip().splitlines()[-1])["peak"])


def _timed(fn: Workload) -> float:
    gc.collect()
    started = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - started
    del result
    return elapsed


def main(argv: list[str]) -> int:
    """Print the figures and PASS/FAIL per target; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions of each (5)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    parser.add_argument("--child", choices=[UNIDIFF, PACK, PARSE], help=argparse.SUPPRESS)
    args = parser.parse_args(argv[1:])
    if args.child:
        _child(args.child)
        return 0
    text, workloads = _workloads()
    print(f"change: {_describe(text)}")
    if _pack_builder() is None:
        print("pr_review.evidence.build is missing: the pack row measures parse_diff alone")
    times: dict[str, list[float]] = {name: [] for name in workloads}
    for _ in range(args.reps):  # interleaved, so drift in machine load hits every workload
        for name, fn in workloads.items():
            times[name].append(_timed(fn))
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"pack analysis mode: {_mode(workloads[PACK]())}")
    peaks = {} if args.no_memory else {name: _peak(name) for name in workloads}
    return _report(medians, peaks, args.reps)


def _report(medians: dict[str, float], peaks: dict[str, int], reps: int) -> int:
    """Print the table and the verdicts; 0 when every measured target is met."""
    print(f"\n{'workload':30} {'median s':>9} {'peak MiB':>9}   (median of {reps} runs)")
    for name, seconds in medians.items():
        mib = f"{peaks[name] / 2**20:9.1f}" if name in peaks else f"{'-':>9}"
        print(f"{name:30} {seconds:9.3f} {mib}")
    time_ratio = medians[PACK] / medians[UNIDIFF]
    ok = time_ratio <= TIME_TARGET
    print(f"\ntime ratio   {time_ratio:5.2f}x  (target <= {TIME_TARGET}x)  {_verdict(ok)}")
    if peaks:
        memory_ratio = peaks[PACK] / peaks[UNIDIFF]
        memory_ok = memory_ratio <= MEMORY_TARGET
        print(
            f"memory ratio {memory_ratio:5.2f}x  (target <= {MEMORY_TARGET}x)  "
            f"{_verdict(memory_ok)}"
        )
        ok = ok and memory_ok
    return 0 if ok else 1


def _mode(pack: object) -> str:
    """``diff.oversize.analysis`` of a built pack (full or budgeted); n/a without one."""
    oversize = getattr(getattr(pack, "diff", None), "oversize", None)
    return str(getattr(oversize, "analysis", "n/a"))


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _describe(text: str) -> str:
    from pr_review.sources.diff import parse_diff

    d = parse_diff(text)
    kinds: dict[str, int] = {}
    for f in d.files:
        kinds[f.status.value] = kinds.get(f.status.value, 0) + 1
    return (
        f"{len(d.files)} files ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
        f"+{d.insertions} -{d.deletions} lines, {len(text) / 1e6:.1f} MB of diff text"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv))
