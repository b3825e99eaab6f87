"""Diff scope against BugsInPy: do our changed-line sets equal each case's ``expected_lines``?

Every case's ``bug_diff`` is parsed with ``parse_diff``; the changed lines are computed with
``DiffScope.from_diff(...).all_ranges()``, the same scope the verifiers filter findings with,
and compared exactly (path, start, end of every run of added lines) to ``expected_lines``.

    .venv/bin/python bench/bench_diff_scope.py [CASES.jsonl]

Default corpus: ``../shared/corpus/bugsinpy/cases.jsonl`` relative to the repository root.
Prints the exact-match count, the mismatching ids, and parse+scope time per case.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from pr_review.sources.diff import parse_diff
from pr_review.verifiers.scope import DiffScope

DEFAULT = Path(__file__).resolve().parent.parent / ".." / "shared/corpus/bugsinpy/cases.jsonl"


def ranges_of(bug_diff: str) -> list[tuple[str, int, int]]:
    """Our changed-line runs of a diff, sorted."""
    scope = DiffScope.from_diff(parse_diff(bug_diff))
    return sorted((path, r.start, r.end) for path, r in scope.all_ranges())


def main(argv: list[str]) -> int:
    """Run the comparison; exit 1 when any case mismatches."""
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT.resolve()
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    matches, mismatched, timings = 0, [], []
    for case in cases:
        started = time.perf_counter()
        ours = ranges_of(case["bug_diff"])
        timings.append(time.perf_counter() - started)
        expected = sorted((e["path"], e["start"], e["end"]) for e in case["expected_lines"])
        if ours == expected:
            matches += 1
        else:
            mismatched.append(case["id"])
    print(f"corpus: {path}")
    print(f"exact matches: {matches}/{len(cases)}")
    if mismatched:
        print("mismatched:", ", ".join(mismatched[:20]), "..." if len(mismatched) > 20 else "")
    ms = [t * 1000 for t in timings]
    print(f"parse+scope per case: median {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms, "
          f"total {sum(ms):.0f} ms")  # fmt: skip
    return 0 if matches == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
