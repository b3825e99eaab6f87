"""Evidence pack over every guardrails corpus case: expected vs computed lane and flags.

Run: ``.venv/bin/python bench/bench_lanes.py [CORPUS_DIR]`` (default
``../shared/corpus/guardrails`` relative to the repository root). Each case becomes a real git
repository (base tree committed, ``pr.diff`` applied and committed with the case's messages),
is read with ``read_local_pr`` and packed with ``build_pack``.

The secrets expectation is checked against the pack (a secrets hotspot or risk factor):
the secrets verifier, which reports secrets as findings, runs in a later stage.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    """Print one row per case and the totals; exit 1 when an expectation is missed."""
    from pr_review.config import Config
    from pr_review.corpus import BASE_BRANCH, PR_BRANCH, load_case, materialize_case
    from pr_review.evidence.build import build_pack
    from pr_review.sources.git import read_local_pr

    corpus = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "corpus" / "guardrails"
    cases = sorted(p for p in (corpus / "cases").iterdir() if (p / "case.json").is_file())
    met = total = 0
    header = f"{'case':45} {'expected':14} {'lane':7} {'conf':6} checks"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for case_dir in cases:
            case = load_case(case_dir)
            repo = materialize_case(case_dir, corpus / "repos", Path(tmp) / case.id)
            pr = read_local_pr(repo, BASE_BRANCH, PR_BRANCH, title=case.title, body=case.body)
            started = time.perf_counter()
            pack = build_pack(pr, Config())
            ms = (time.perf_counter() - started) * 1000
            checks = _checks(case.expected, pack)
            met += sum(ok for _, ok in checks)
            total += len(checks)
            lanes = case.expected.get("lane_any_of")
            expected = "/".join(lanes) if isinstance(lanes, list) else "-"
            marks = " ".join(f"{name}:{'ok' if ok else 'MISS'}" for name, ok in checks)
            print(
                f"{case.id:45} {expected:14} {pack.risk.lane.value:7} "
                f"{pack.risk.confidence.value:6} {marks}  ({ms:.0f} ms)"
            )
            factors = ", ".join(f"{f.factor}[{f.severity.value}]" for f in pack.risk.factors)
            print(f"{'':45}   factors: {factors or '-'}")
    print(f"\nexpectations met: {met}/{total}")
    return 0 if met == total else 1


def _checks(expected: dict[str, object], pack: object) -> list[tuple[str, bool]]:
    from pr_review.schema.pack import EvidencePack

    assert isinstance(pack, EvidencePack)
    out: list[tuple[str, bool]] = []
    lanes = expected.get("lane_any_of")
    if isinstance(lanes, list):
        out.append(("lane", pack.risk.lane.value in lanes))
    if "oversized" in expected:
        out.append(
            (
                "oversized",
                pack.diff.oversize.oversized == expected["oversized"]
                and any(b.kind == "oversized-diff" for b in pack.blockers) == expected["oversized"],
            )
        )
    if "missing_description" in expected:
        missing = any(a.artifact.startswith("PR description") for a in pack.missing_artifacts)
        out.append(("missing_description", missing == expected["missing_description"]))
    if "ai_assisted" in expected:
        out.append(("ai_assisted", pack.authorship.ai_assisted == expected["ai_assisted"]))
    if "secrets" in expected:
        found = any(h.category == "secrets" for h in pack.hotspots) or any(
            f.factor == "secrets" for f in pack.risk.factors
        )
        out.append(("secrets", found == expected["secrets"]))
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv))
