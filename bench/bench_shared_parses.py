"""Evidence packs of real PRs with parses shared within a pack vs each reader parsing again.

Run: ``.venv/bin/python bench/bench_shared_parses.py [--reps N] [--prs N]``

Real merged PRs from ``bench/corpora`` (a Python, a TypeScript and a Python web framework's
cases, read from their bundles), built with ``build_pack`` twice, alternating in this process
``--reps`` times: with :func:`pr_review.evidence.shared_parses.shared_parses` (each source
parsed once per pack, ``ast`` and tree-sitter alike) and with it replaced by a no-op (every
structural reader parses for itself, as before). Medians and their ratio are printed per
repository. Targets: the packs are identical (lane, every factor and its reason) and the
shared build is not slower (ratio <= 1.0). Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from pr_review.config import Config  # noqa: E402 (after the path is set)
from pr_review.evidence import build  # noqa: E402
from pr_review.sources.git import read_local_pr  # noqa: E402

REPOS = (("holdout", "aiohttp"), ("holdout", "hono"), ("holdout2", "werkzeug"))


def main(argv: list[str]) -> int:
    """Measure each repository; 1 when a pack differs or sharing is slower."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--prs", type=int, default=25, help="cases per repository")
    args = parser.parse_args(argv)
    shared = build.shared_parses
    config = Config()
    missed = False
    with tempfile.TemporaryDirectory(prefix="bench-parses-") as tmp:
        for half, repo in REPOS:
            root = ROOT / "bench" / "corpora" / half
            clone = Path(tmp) / repo
            subprocess.run(["git", "clone", "-q", "--bare", str(root / "repos" / f"{repo}.bundle"),
                            str(clone)], check=True)
            specs = [json.loads(p.read_text())
                     for p in sorted((root / "cases").glob(f"{repo}-*/case.json"))][: args.prs]
            prs = [read_local_pr(clone, c["base"], c["head"], title=c["title"], body=c["body"])
                   for c in specs]
            times: dict[str, list[float]] = {"each reader": [], "shared": []}
            packs: dict[str, list[object]] = {}
            for _ in range(args.reps):
                for mode, taken in times.items():
                    build.shared_parses = (  # type: ignore[assignment]
                        shared if mode == "shared" else contextlib.nullcontext
                    )
                    started = time.perf_counter()
                    out = [build.build_pack(pr, config) for pr in prs]
                    taken.append(time.perf_counter() - started)
                    packs[mode] = [(p.risk.lane, [(f.factor, f.severity, f.why)
                                                   for f in p.risk.factors]) for p in out]
            build.shared_parses = shared
            alone, together = (statistics.median(times[m]) for m in ("each reader", "shared"))
            same = packs["each reader"] == packs["shared"]
            ratio = together / alone
            print(f"{repo:10} {len(prs)} PRs: each reader parses {alone:6.2f} s, shared "
                  f"{together:6.2f} s (median of {args.reps}), ratio {ratio:.2f}, packs "
                  f"{'identical' if same else 'DIFFER'}", flush=True)
            missed |= not same or ratio > 1.0
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
