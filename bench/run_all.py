"""Run every benchmark in bench/ in turn and report which met its target.

    python bench/run_all.py

Each benchmark prints its own figures and exits 1 when it misses its target; this runner
exits 1 when any of them did.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = (
    "bench_pack.py",
    "bench_lanes.py",
    "bench_hotspot_false_alarms.py",
    "bench_diff_scope.py",
    "bench_reviewers.py",
    "bench_large_pr.py",
    "bench_martian.py",
    "bench_real.py",
    "bench_backtest.py",
    "bench_findings.py",
    "bench_process.py",
    "bench_shared_parses.py",
)


def main() -> int:
    """Run each benchmark; return 1 when any failed."""
    results = []
    for name in BENCHES:
        print(f"\n===== {name} =====", flush=True)
        code = subprocess.run([sys.executable, str(HERE / name)], check=False).returncode
        results.append((name, code))
    print("\n===== summary =====")
    for name, code in results:
        print(f"{name:34} {'met' if code == 0 else f'MISSED (exit {code})'}")
    return 0 if all(code == 0 for _, code in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
