"""``pr-review eval`` on the real corpus: the lane figures and the per-case table.

Run: ``.venv/bin/python bench/bench_real.py [--corpus DIR] [--concurrency N] [--out-dir D]``
(default corpus ``../shared/corpus/real`` relative to the repository root: 89 merged PRs of
psf/requests and pallets/flask in git-bundle form, labelled before any rule change). Every
case gets the deterministic review (no model), exactly as ``pr-review eval`` does it.

Prints the lane confusion matrix, security recall, false reds, neutral PRs kept green, the
must-not flags, the wall time, and one row per case: id, accepted lanes, lane given and the
risk factors behind it. Targets (exit 1 when missed): every case reviewed, and no case that
accepts only red (the security fixes) given green. Skips (exit 0, saying so) when the corpus
is not there.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def main(argv: list[str]) -> int:
    """Run the eval over the corpus, print the figures and the table; 1 when a target missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--out-dir", type=Path, help="keep the eval's files here (default: temp)")
    args = parser.parse_args(argv[1:])
    if not (args.corpus / "cases").is_dir():
        print(f"bench_real: skipped: no corpus at {args.corpus} (put the shared/ directory "
              "beside the repository, or pass --corpus DIR)")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-real-") as tmp:
        out_dir = args.out_dir or Path(tmp)
        return _run(args.corpus, out_dir, args.concurrency)


def _run(corpus: Path, out_dir: Path, concurrency: int) -> int:
    from pr_review.evaluation.api import run_eval
    from pr_review.evaluation.metrics import accepted_label
    from pr_review.evaluation.results import CaseStatus
    from pr_review.evaluation.runner import RunSettings
    from pr_review.evaluation.tables import render_lane_figures

    started = time.perf_counter()
    report = run_eval(corpus, config_path=None, settings=RunSettings(
        out_dir=out_dir, concurrency=concurrency, grade=False,
    ))
    wall = time.perf_counter() - started
    summary = report.summary
    header = f"{'case':30} {'accepted':11} {'lane':7} factors"
    print(header)
    print("-" * len(header))
    for m in summary.cases:
        accepted = accepted_label(m.lane.expected) if m.lane.expected else "-"
        lane = m.lane.actual.value if m.lane.actual else "ERROR"
        mark = "" if m.lane.met is not False else "  <- miss"
        factors = ", ".join(f"{f.factor}[{f.severity}]" for f in m.factors) or "-"
        if m.status is CaseStatus.ERROR:
            factors = f"error: {m.error}"
        print(f"{m.case_id:30} {accepted:11} {lane:7} {factors}{mark}")
    t = summary.totals
    print()
    print(f"cases            {t.cases} ({t.errors} errors), lane right on {t.lane_met}/"
          f"{t.lane_expected}")
    for line in render_lane_figures(t.lanes):
        print(line)
    print(f"must-not flags   {t.flag_false_positives}/{t.flags_must_not} detected anyway"
          + (f": {', '.join(t.flag_false_positive_cases)}" if t.flag_false_positive_cases else ""))
    per_case = t.wall_ms_median / 1000
    print(f"wall time        {wall:.1f} s for {t.cases} cases at concurrency {concurrency} "
          f"(median {per_case:.2f} s per case)")
    missed = []
    if t.errors:
        missed.append(f"{t.errors} case(s) did not complete")
    if t.lanes.security_green:
        missed.append(f"{t.lanes.security_green} red-only case(s) given green")
    for reason in missed:
        print(f"target missed: {reason}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
