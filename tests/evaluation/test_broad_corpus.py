"""The broad real corpus under bench/corpora: loadable by ``pr-review eval``, split by repository.

Checks the data, not the review: every case loads (schema, bundle present), each repository
lives in exactly one half, and every case's expected lanes are its labels file's written label.
The tune and report halves are labelled by a person throughout, as are holdout3 to holdout7;
the first two holdouts keep the builder's file-kind labels for ordinary PRs ("auto: ..."), which
decide nothing their figures use but the docs-only share: ordinary versus security fix is what
false reds and recall read, and security fixes are always listed by hand.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pr_review.evaluation.corpus import load_corpus

CORPORA = Path(__file__).resolve().parents[2] / "bench" / "corpora"
LABELS = CORPORA.parent / "labels"


SPLIT = json.loads((CORPORA / "split.json").read_text())

HALVES = tuple(half for half, repos in SPLIT.items() if isinstance(repos, list))
"""Every half ``split.json`` lists repositories for (its other keys are notes)."""


OUTSIDE_BUDGET = frozenset(SPLIT.get("built_outside_budget", {}))
"""Halves whose labels are kept but whose bundles and cases are built outside bench/corpora
(they do not fit its budget)."""


def _split() -> dict[str, list[str]]:
    return {half: list(SPLIT[half]) for half in HALVES}


def _half_of(repo: str) -> str:
    return next(half for half, repos in _split().items() if repo in repos)


def test_halves_are_disjoint_by_repository() -> None:
    split = _split()
    seen: set[str] = set()
    for half in HALVES:
        assert seen.isdisjoint(split[half]), half
        seen |= set(split[half])
    assert len(split["tune"]) + len(split["report"]) >= 10


MIN_PRS = 15
"""Selected PRs per repository, on average over a half: the rule takes the last 30 merged PRs
of each default branch, fewer where a project has fewer (node-tar 6: its maintainer commits
directly; nosurf 17), and since holdout10 a repository with fewer than 15 is replaced by its
half's alternate."""


def test_every_case_loads_and_sits_in_its_repositorys_half() -> None:
    split = _split()
    for half in HALVES:
        if not (CORPORA / half / "cases").is_dir():
            continue
        cases = load_corpus(CORPORA / half)
        ordinary = Counter(c.spec.repo for c in cases if "-ordinary-" in c.id)
        assert len(ordinary) == len(split[half]), half
        assert sum(ordinary.values()) >= MIN_PRS * len(ordinary), (half, ordinary)
        for case in cases:
            labels = json.loads((LABELS / f"{case.spec.repo}.json").read_text())
            assert labels["repo"] in split[half], case.id
            assert case.id.startswith(f"{case.spec.repo}-"), case.id


def test_expected_lanes_are_the_written_labels() -> None:
    for labels_file in sorted(LABELS.glob("*.json")):
        labels = json.loads(labels_file.read_text())
        entries = labels["prs"] + labels["security"]
        half = _half_of(labels["repo"])
        assert all(e["reason"] for e in entries)
        if half in ("tune", "report"):
            assert not any(e["reason"].startswith("auto:") for e in entries)
        assert all(e["lane"] == ["red"] for e in labels["security"])
        assert not any(e["reason"].startswith("auto:") for e in labels["security"])
        if half in OUTSIDE_BUDGET:
            assert not (CORPORA / half).exists(), f"{half} is built outside bench/corpora"
            continue
        for entry in labels["prs"]:
            case_id = f"{labels_file.stem}-ordinary-{entry['upstream'][:10]}"
            case = json.loads((CORPORA / half / "cases" / case_id / "case.json").read_text())
            assert case["expected"]["lane_any_of"] == entry["lane"], case_id


def test_the_corpora_stay_within_their_30_mb_budget() -> None:
    size = sum(p.stat().st_size for p in CORPORA.rglob("*") if p.is_file())
    assert size <= 30 * 2**20, f"bench/corpora holds {size / 2**20:.1f} MiB (budget 30 MiB)"
