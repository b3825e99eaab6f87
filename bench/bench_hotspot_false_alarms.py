"""Security hotspot false alarms on real bug-introducing diffs (BugsInPy, reversed fixes).

Run: ``.venv/bin/python bench/bench_hotspot_false_alarms.py [CASES_JSONL]`` (default
``../shared/corpus/bugsinpy/cases.jsonl``). For each of the reversed real bugs (``bug_diff``)
it scans the added lines with the hotspot rules and reports, per security category, the share
of cases where the category fired. None of these bugs is a security defect, so every firing is
a false alarm. Target: at most 2% per category.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECURITY = ("sql-query-construction", "secrets", "crypto-operation", "permission-authorization")
TARGET = 0.02


def main(argv: list[str]) -> int:
    """Print the false-alarm rate per security category; exit 1 above the target."""
    from pr_review.evidence.content import scan_file
    from pr_review.sources.diff import parse_diff
    from pr_review.sources.paths import PathKind, classify

    path = (
        Path(argv[1])
        if len(argv) > 1
        else ROOT.parent / "shared" / "corpus" / "bugsinpy" / "cases.jsonl"
    )
    cases = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    fired: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for case in cases:
        diff = parse_diff(case["bug_diff"])
        categories: set[str] = set()
        for f in diff.files:
            full = classify(f.path) not in {PathKind.DOCS, PathKind.TEST}
            scan = scan_file(f, full=full)
            if full or scan.added.get("secrets"):
                categories.update(scan.added)
        for category in categories:
            fired[category] += 1
            examples.setdefault(category, case["id"])
    worst = 0.0
    print(f"{len(cases)} reversed real bugs")
    print(f"{'category':28} {'cases':>6} {'rate':>7}  first example")
    for category in SECURITY:
        rate = fired[category] / len(cases) if cases else 0.0
        worst = max(worst, rate)
        print(f"{category:28} {fired[category]:6d} {rate:7.2%}  {examples.get(category, '-')}")
    print("\nother categories (focus magnets, no target):")
    for category, count in sorted(fired.items()):
        if category not in SECURITY:
            print(f"  {category:26} {count:6d} {count / len(cases):7.2%}")
    print(f"\nworst security category: {worst:.2%} (target <= {TARGET:.0%})")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
