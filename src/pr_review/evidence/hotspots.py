"""Hotspots: regions of added lines a reviewer should look at first (never findings).

Hits of one category in one file are clustered into ranges of nearby lines; each range is a
hotspot with the new-file line numbers, the first rule's ``why``, and ``risk_contributing``
when the file appears in a risk factor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pr_review.evidence.content import FileScan
from pr_review.evidence.rules import CATEGORIES
from pr_review.schema.pack import Hotspot, RiskFactor
from pr_review.sources.paths import PathKind

GAP = 3
"""Hits at most this many lines apart belong to one hotspot."""
MAX_PER_FILE_CATEGORY = 5


def hotspots(
    scans: Mapping[str, FileScan], kinds: Mapping[str, PathKind], factors: Iterable[RiskFactor]
) -> tuple[Hotspot, ...]:
    """Hotspots of every scanned file, in file then line order."""
    risky = {path for factor in factors for path in factor.files}
    out: list[Hotspot] = []
    for path, scan in scans.items():
        if kinds[path] in {PathKind.DOCS, PathKind.TEST} and not scan.added.get("secrets"):
            continue
        for category in CATEGORIES:
            if not category.policy.hotspot:
                continue
            found = scan.added.get(category.name)
            if not found:
                continue
            clusters = _clusters(sorted({h.line: h.rule for h in found}.items()))
            for start, end, rule in clusters[:MAX_PER_FILE_CATEGORY]:
                out.append(
                    Hotspot(
                        file=path,
                        line_start=start,
                        line_end=end,
                        category=category.name,
                        why=category.rules[rule].why,
                        risk_contributing=path in risky,
                    )
                )
        if scan.check_then_act:
            line = scan.check_then_act[0]
            out.append(
                Hotspot(
                    file=path,
                    line_start=line,
                    line_end=scan.check_then_act[-1],
                    category="shared-resource-contention",
                    why="read then write of the same key without atomicity (check-then-act)",
                    risk_contributing=path in risky,
                )
            )
    return tuple(sorted(out, key=lambda h: (h.file, h.line_start, h.category)))


def _clusters(lines: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    clusters: list[tuple[int, int, int]] = []
    for line, rule in lines:
        if clusters and line - clusters[-1][1] <= GAP:
            start, _, first = clusters[-1]
            clusters[-1] = (start, line, first)
        else:
            clusters.append((line, line, rule))
    return clusters
